"""Recall: the pipeline (pipeline), its retrievers (keyword, people; vectors in storebase),
fusion and priors, the tuned constants (config) and the strategy registry (registry)."""
