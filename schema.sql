-- mem schema, applied by migration m001_initial. Later changes are new named
-- migrations in memory_core.MIGRATIONS; this file is never edited once released.
--
-- Timestamps are ISO-8601 text 'YYYY-MM-DDTHH:MM:SS'. created_at / updated_at /
-- last_accessed_at / valid_* are UTC. event_at is the wall-clock time the thing
-- happened as the source gave it (a chat export's local time stays local), so that
-- "what happened on 12 March" matches what the user saw.

CREATE TABLE memories (
    -- explicit integer primary key: the external-content FTS and vec0 tables are keyed by it
    id               INTEGER PRIMARY KEY,
    content          TEXT    NOT NULL CHECK (length(content) > 0),
    memory_type      TEXT    NOT NULL DEFAULT 'semantic'
                     CHECK (memory_type IN ('episodic', 'semantic', 'procedural')),
    source           TEXT    NOT NULL DEFAULT 'user',
    ref              TEXT,                         -- external id, unique per source (imports are idempotent by it)
    content_hash     TEXT    NOT NULL,
    importance       REAL    NOT NULL DEFAULT 0.5 CHECK (importance BETWEEN 0 AND 1),
    strength         REAL    NOT NULL DEFAULT 1.0 CHECK (strength BETWEEN 0 AND 1),
    base_strength    REAL    NOT NULL DEFAULT 1.0, -- decay is computed from this and decay_ref_at, never compounded
    decay_ref_at     TEXT,                         -- clock start of decay: last access, else storage time
    access_count     INTEGER NOT NULL DEFAULT 0,
    pinned           INTEGER NOT NULL DEFAULT 0 CHECK (pinned IN (0, 1)),
    created_at       TEXT    NOT NULL,
    event_at         TEXT,
    last_accessed_at TEXT,
    updated_at       TEXT    NOT NULL,
    valid_from       TEXT,
    valid_to         TEXT,                         -- set when superseded; the row stays
    status           TEXT    NOT NULL DEFAULT 'active'
                     CHECK (status IN ('active', 'archived', 'deleted')),
    level            INTEGER NOT NULL DEFAULT 0,   -- 0 raw, >= 1 summary level
    author           TEXT,                         -- speaker / writer, when known
    thread           TEXT,                         -- conversation id: chat, conversation, note file
    position         INTEGER,                      -- order inside the thread
    metadata         TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(metadata)),
    tags             TEXT    NOT NULL DEFAULT '',  -- space separated, lower case
    date_terms       TEXT    NOT NULL DEFAULT '',  -- resolved dates, keyword-indexed ("2024-03-12 march 12 tuesday")
    context          TEXT    NOT NULL DEFAULT '',  -- nearest turns of the same conversation, keyword-indexed, never shown
    context_far      TEXT    NOT NULL DEFAULT ''   -- turns a little further away (lower bm25 weight)
);

CREATE UNIQUE INDEX memories_source_ref ON memories(source, ref) WHERE ref IS NOT NULL;
CREATE INDEX memories_hash ON memories(content_hash);
CREATE INDEX memories_status_type ON memories(status, memory_type);
CREATE INDEX memories_event_at ON memories(event_at);
CREATE INDEX memories_thread ON memories(thread, position) WHERE thread IS NOT NULL;
CREATE INDEX memories_level ON memories(level) WHERE level > 0;

CREATE VIRTUAL TABLE memories_fts USING fts5(
    content, tags, date_terms, context, context_far,
    content='memories', content_rowid='id',
    tokenize='porter unicode61 remove_diacritics 2'
);

-- External-content FTS must be told the OLD values on delete/update, or stale words
-- stay searchable.
CREATE TRIGGER memories_ai AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts(rowid, content, tags, date_terms, context, context_far)
    VALUES (new.id, new.content, new.tags, new.date_terms, new.context, new.context_far);
END;
CREATE TRIGGER memories_ad AFTER DELETE ON memories BEGIN
    INSERT INTO memories_fts(memories_fts, rowid, content, tags, date_terms, context, context_far)
    VALUES ('delete', old.id, old.content, old.tags, old.date_terms, old.context, old.context_far);
END;
CREATE TRIGGER memories_au AFTER UPDATE OF content, tags, date_terms, context, context_far ON memories BEGIN
    INSERT INTO memories_fts(memories_fts, rowid, content, tags, date_terms, context, context_far)
    VALUES ('delete', old.id, old.content, old.tags, old.date_terms, old.context, old.context_far);
    INSERT INTO memories_fts(rowid, content, tags, date_terms, context, context_far)
    VALUES (new.id, new.content, new.tags, new.date_terms, new.context, new.context_far);
END;

-- One vector per memory. Large stores search an in-process copy (memory_core.VectorMatrix).
-- int8, scaled per vector so its largest component is +-127 (cosine needs no scale):
-- 384 bytes instead of 1,536, cosine to the float vector >= 0.9999 (memory_core._vec_blob).
CREATE VIRTUAL TABLE vec_memories USING vec0(
    memory_id INTEGER PRIMARY KEY,
    embedding int8[384] distance_metric=cosine
);
-- Second vector per conversational memory: the turn embedded with its neighbours.
CREATE VIRTUAL TABLE vec_contexts USING vec0(
    memory_id INTEGER PRIMARY KEY,
    embedding int8[384] distance_metric=cosine
);

CREATE TABLE associations (
    id          INTEGER PRIMARY KEY,
    source_id   INTEGER NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    target_id   INTEGER NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    edge_type   TEXT    NOT NULL CHECK (edge_type IN ('temporal', 'semantic', 'causal', 'explicit', 'part_of',
                                                      'derived_from', 'contradicts', 'supersedes', 'reinforces')),
    weight      REAL    NOT NULL DEFAULT 0.5 CHECK (weight BETWEEN 0 AND 1),
    created_at  TEXT    NOT NULL,
    last_used_at TEXT,
    metadata    TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(metadata)),
    CHECK (source_id <> target_id),
    UNIQUE (source_id, target_id, edge_type)
);
CREATE INDEX associations_target ON associations(target_id, edge_type);

CREATE TABLE clusters (
    id                INTEGER PRIMARY KEY,
    level             INTEGER NOT NULL DEFAULT 1,
    parent_id         INTEGER REFERENCES clusters(id) ON DELETE SET NULL,
    summary_memory_id INTEGER REFERENCES memories(id) ON DELETE SET NULL,
    centroid          BLOB,                         -- float32[384], L2-normalised
    member_count      INTEGER NOT NULL DEFAULT 0,
    label             TEXT,
    status            TEXT    NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'merged', 'withdrawn')),
    created_at        TEXT    NOT NULL,
    updated_at        TEXT    NOT NULL
);
CREATE INDEX clusters_parent ON clusters(parent_id);
CREATE INDEX clusters_level ON clusters(level, status);

CREATE TABLE cluster_members (
    cluster_id  INTEGER NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
    memory_id   INTEGER NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    similarity  REAL,
    added_at    TEXT    NOT NULL,
    PRIMARY KEY (cluster_id, memory_id)
);
CREATE INDEX cluster_members_memory ON cluster_members(memory_id);

CREATE TABLE contradictions (
    id           INTEGER PRIMARY KEY,
    memory_a     INTEGER NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    memory_b     INTEGER NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    kind         TEXT    NOT NULL,
    reason       TEXT    NOT NULL,
    confidence   REAL    NOT NULL DEFAULT 0.5,
    status       TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'superseded', 'resolved', 'dismissed')),
    kept_id      INTEGER REFERENCES memories(id),
    detected_at  TEXT    NOT NULL,
    resolved_at  TEXT,
    CHECK (memory_a < memory_b),
    UNIQUE (memory_a, memory_b)
);

-- Names the store knows: speakers, contacts and their aliases (phone numbers, nicknames).
CREATE TABLE aliases (
    alias      TEXT NOT NULL PRIMARY KEY COLLATE NOCASE,
    name       TEXT NOT NULL,
    kind       TEXT NOT NULL DEFAULT 'person',
    source     TEXT NOT NULL DEFAULT 'user',
    created_at TEXT NOT NULL
);

-- Cross-agent sharing: what this store offered or received. Episodic memories can never
-- be here: the CHECK is the last line of defence behind the code paths.
CREATE TABLE shared_memories (
    id            INTEGER PRIMARY KEY,
    offer_id      TEXT    NOT NULL,
    direction     TEXT    NOT NULL CHECK (direction IN ('outgoing', 'incoming')),
    partner       TEXT    NOT NULL,
    memory_id     INTEGER REFERENCES memories(id) ON DELETE SET NULL,  -- local original (outgoing)
    content       TEXT    NOT NULL,
    memory_type   TEXT    NOT NULL CHECK (memory_type IN ('semantic', 'procedural')),
    content_hash  TEXT    NOT NULL,
    sensitivity   REAL    NOT NULL CHECK (sensitivity < 0.5),
    consent_a     TEXT,                          -- owner A's consent timestamp
    consent_b     TEXT,                          -- owner B's consent timestamp
    status        TEXT    NOT NULL DEFAULT 'offered'
                  CHECK (status IN ('offered', 'approved', 'received', 'revoked')),
    created_at    TEXT    NOT NULL,
    revoked_at    TEXT,
    metadata      TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(metadata)),
    UNIQUE (offer_id, content_hash)
);

CREATE VIEW accessible_shared AS
    SELECT s.*
    FROM shared_memories s
    WHERE s.status IN ('approved', 'received')
      AND s.consent_a IS NOT NULL AND s.consent_b IS NOT NULL
      AND s.revoked_at IS NULL
      AND s.memory_type IN ('semantic', 'procedural')
      AND s.sensitivity < 0.5
      AND NOT EXISTS (SELECT 1 FROM memories m
                      WHERE m.id = s.memory_id AND (m.memory_type = 'episodic' OR m.status <> 'active'));

CREATE TABLE _mem_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
