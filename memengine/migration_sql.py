"""The frozen texts of the schema migrations (memengine/migrations.py runs them, in order).

Each is the SQL a released migration ran, byte for byte: never edited once released (their hashes are
pinned in tests/test_migrations.py), so a store made by an earlier release replays exactly what a fresh
one ran. A schema change is a new text here, a new step in memengine/migrations.py, and the same change
in ``schema.sql``.
"""

# m001_initial: the first release's schema.sql, as it was (commit ad7a9a3).
M001_SQL = """\
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
    context          TEXT    NOT NULL DEFAULT ''   -- neighbouring turns, keyword-indexed, never shown
);

CREATE UNIQUE INDEX memories_source_ref ON memories(source, ref) WHERE ref IS NOT NULL;
CREATE INDEX memories_hash ON memories(content_hash);
CREATE INDEX memories_status_type ON memories(status, memory_type);
CREATE INDEX memories_event_at ON memories(event_at);
CREATE INDEX memories_thread ON memories(thread, position) WHERE thread IS NOT NULL;
CREATE INDEX memories_level ON memories(level) WHERE level > 0;

CREATE VIRTUAL TABLE memories_fts USING fts5(
    content, tags, date_terms, context,
    content='memories', content_rowid='id',
    tokenize='porter unicode61 remove_diacritics 2'
);

-- External-content FTS must be told the OLD values on delete/update, or stale words
-- stay searchable.
CREATE TRIGGER memories_ai AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts(rowid, content, tags, date_terms, context)
    VALUES (new.id, new.content, new.tags, new.date_terms, new.context);
END;
CREATE TRIGGER memories_ad AFTER DELETE ON memories BEGIN
    INSERT INTO memories_fts(memories_fts, rowid, content, tags, date_terms, context)
    VALUES ('delete', old.id, old.content, old.tags, old.date_terms, old.context);
END;
CREATE TRIGGER memories_au AFTER UPDATE OF content, tags, date_terms, context ON memories BEGIN
    INSERT INTO memories_fts(memories_fts, rowid, content, tags, date_terms, context)
    VALUES ('delete', old.id, old.content, old.tags, old.date_terms, old.context);
    INSERT INTO memories_fts(rowid, content, tags, date_terms, context)
    VALUES (new.id, new.content, new.tags, new.date_terms, new.context);
END;

-- Exact vectors, and a 1-bit copy for a fast coarse scan re-ranked exactly.
CREATE VIRTUAL TABLE vec_memories USING vec0(
    memory_id INTEGER PRIMARY KEY,
    embedding float[384] distance_metric=cosine
);
CREATE VIRTUAL TABLE vec_memories_bit USING vec0(
    memory_id INTEGER PRIMARY KEY,
    embedding bit[384]
);
-- Second vector per conversational memory: the turn embedded with its neighbours.
CREATE VIRTUAL TABLE vec_contexts USING vec0(
    memory_id INTEGER PRIMARY KEY,
    embedding float[384] distance_metric=cosine
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
"""

# m002_sharing: sharing's tables, views and guard triggers as memengine.sharing wrote them.
M002_SQL = """\
CREATE TABLE IF NOT EXISTS share_offers (
        offer_id      TEXT PRIMARY KEY,
        direction     TEXT NOT NULL CHECK (direction IN ('outgoing', 'incoming')),
        owner_a       TEXT NOT NULL,          -- the offering side's owner
        owner_b       TEXT NOT NULL,          -- the partner's owner
        created_at    TEXT NOT NULL,
        consent_a     TEXT,
        consent_b     TEXT,
        revoked_at    TEXT,
        revoked_by    TEXT,
        bundle_digest TEXT,                   -- incoming: the bundle that brought it
        metadata      TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(metadata)),
        CHECK (owner_a <> owner_b)
    );

CREATE INDEX IF NOT EXISTS share_offers_partner ON share_offers(owner_a, owner_b);

CREATE TABLE IF NOT EXISTS share_bundles (
        digest      TEXT PRIMARY KEY,
        sender      TEXT NOT NULL,
        imported_at TEXT NOT NULL,
        summary     TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(summary))
    );

CREATE TRIGGER IF NOT EXISTS shared_memories_guard_bi BEFORE INSERT ON shared_memories
    WHEN new.memory_id IS NOT NULL AND (
        EXISTS (
WITH RECURSIVE walk(id) AS (
    SELECT new.memory_id
    UNION
    SELECT a.target_id FROM associations a
    JOIN walk w ON a.source_id = w.id
    JOIN memories s ON s.id = w.id
    WHERE a.edge_type = 'derived_from'
      AND s.memory_type <> 'episodic'
      AND coalesce(json_extract(s.metadata, '$.share_semantic'), '') <> s.content_hash
)
SELECT 1 FROM walk JOIN memories m ON m.id = walk.id WHERE m.memory_type = 'episodic'
)
        OR (new.direction = 'outgoing' AND EXISTS (
WITH RECURSIVE walk(id) AS (
    SELECT new.memory_id
    UNION
    SELECT a.target_id FROM associations a JOIN walk w ON a.source_id = w.id WHERE a.edge_type = 'derived_from'
)
SELECT 1 FROM walk JOIN memories m ON m.id = walk.id WHERE m.source LIKE 'shared:%'
)))
    BEGIN
        SELECT RAISE(ABORT, 'episodic or episodic-derived memories cannot be shared');
    END;

CREATE TRIGGER IF NOT EXISTS shared_memories_guard_bu BEFORE UPDATE ON shared_memories
    WHEN new.status <> 'revoked' AND new.memory_id IS NOT NULL AND (
        EXISTS (
WITH RECURSIVE walk(id) AS (
    SELECT new.memory_id
    UNION
    SELECT a.target_id FROM associations a
    JOIN walk w ON a.source_id = w.id
    JOIN memories s ON s.id = w.id
    WHERE a.edge_type = 'derived_from'
      AND s.memory_type <> 'episodic'
      AND coalesce(json_extract(s.metadata, '$.share_semantic'), '') <> s.content_hash
)
SELECT 1 FROM walk JOIN memories m ON m.id = walk.id WHERE m.memory_type = 'episodic'
)
        OR (new.direction = 'outgoing' AND EXISTS (
WITH RECURSIVE walk(id) AS (
    SELECT new.memory_id
    UNION
    SELECT a.target_id FROM associations a JOIN walk w ON a.source_id = w.id WHERE a.edge_type = 'derived_from'
)
SELECT 1 FROM walk JOIN memories m ON m.id = walk.id WHERE m.source LIKE 'shared:%'
)))
    BEGIN
        SELECT RAISE(ABORT, 'episodic or episodic-derived memories cannot be shared');
    END;

CREATE TRIGGER IF NOT EXISTS shared_memories_offer_bi BEFORE INSERT ON shared_memories
    WHEN NOT EXISTS (SELECT 1 FROM share_offers o WHERE o.offer_id = new.offer_id AND o.direction = new.direction)
    BEGIN
        SELECT RAISE(ABORT, 'shared_memories row without a matching share_offers offer');
    END;

CREATE VIEW IF NOT EXISTS share_pool AS
    SELECT s.* FROM accessible_shared s
    WHERE s.memory_id IS NULL OR NOT EXISTS (
WITH RECURSIVE walk(id) AS (
    SELECT s.memory_id
    UNION
    SELECT a.target_id FROM associations a
    JOIN walk w ON a.source_id = w.id
    JOIN memories s ON s.id = w.id
    WHERE a.edge_type = 'derived_from'
      AND s.memory_type <> 'episodic'
      AND coalesce(json_extract(s.metadata, '$.share_semantic'), '') <> s.content_hash
)
SELECT 1 FROM walk JOIN memories m ON m.id = walk.id WHERE m.memory_type = 'episodic'
);
"""

# m005_int8_vectors: both vector tables as int8 (the statements of schema.sql at 6cd5d8b).
M005_VEC_TABLES = {
    "vec_memories": "CREATE VIRTUAL TABLE vec_memories USING vec0(\n    memory_id INTEGER PRIMARY KEY,\n"
                    "    embedding int8[384] distance_metric=cosine\n)",
    "vec_contexts": "CREATE VIRTUAL TABLE vec_contexts USING vec0(\n    memory_id INTEGER PRIMARY KEY,\n"
                    "    embedding int8[384] distance_metric=cosine\n)",
}

# m006_context_far: the keyword index with the context_far column (schema.sql since 2c633b6).
M006_FTS_SQL = """\
CREATE VIRTUAL TABLE memories_fts USING fts5(
    content, tags, date_terms, context, context_far,
    content='memories', content_rowid='id',
    tokenize='porter unicode61 remove_diacritics 2'
);
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
"""

# m007_people: active memories per author, kept exact by triggers, so the people list
# (recall's person prior, summaries) is read without scanning every row.
M007_PEOPLE_SQL = """\
CREATE TABLE memory_authors (
    author TEXT PRIMARY KEY,
    active INTEGER NOT NULL    -- active memories with this author (rows at 0 are deleted)
) WITHOUT ROWID;
CREATE TRIGGER memory_authors_ai AFTER INSERT ON memories
    WHEN new.author IS NOT NULL AND new.status = 'active' BEGIN
    INSERT INTO memory_authors(author, active) VALUES (new.author, 1)
        ON CONFLICT(author) DO UPDATE SET active = active + 1;
END;
CREATE TRIGGER memory_authors_ad AFTER DELETE ON memories
    WHEN old.author IS NOT NULL AND old.status = 'active' BEGIN
    UPDATE memory_authors SET active = active - 1 WHERE author = old.author;
    DELETE FROM memory_authors WHERE author = old.author AND active <= 0;
END;
CREATE TRIGGER memory_authors_au AFTER UPDATE OF author, status ON memories
    WHEN old.author IS NOT new.author OR old.status IS NOT new.status BEGIN
    UPDATE memory_authors SET active = active - 1 WHERE author = old.author AND old.status = 'active';
    DELETE FROM memory_authors WHERE author = old.author AND active <= 0;
    INSERT INTO memory_authors(author, active) SELECT new.author, 1
        WHERE new.author IS NOT NULL AND new.status = 'active'
        ON CONFLICT(author) DO UPDATE SET active = active + 1;
END;
"""

# m008_counts: what `stats` shows, kept exact by triggers, so a cold `stats` reads a few rows
# instead of counting every memory and edge (0.2 s at 100k, linear in N).
M008_COUNTS_SQL = """\
CREATE TABLE _mem_counts (
    what        TEXT NOT NULL,              -- 'memories' (per status and type) or 'associations'
    status      TEXT NOT NULL DEFAULT '',
    memory_type TEXT NOT NULL DEFAULT '',
    n           INTEGER NOT NULL,           -- rows at 0 are deleted
    PRIMARY KEY (what, status, memory_type)
) WITHOUT ROWID;
CREATE TRIGGER _mem_counts_memories_ai AFTER INSERT ON memories BEGIN
    INSERT INTO _mem_counts(what, status, memory_type, n) VALUES ('memories', new.status, new.memory_type, 1)
        ON CONFLICT(what, status, memory_type) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER _mem_counts_memories_ad AFTER DELETE ON memories BEGIN
    UPDATE _mem_counts SET n = n - 1 WHERE what = 'memories' AND status = old.status AND memory_type = old.memory_type;
    DELETE FROM _mem_counts WHERE what = 'memories' AND status = old.status AND memory_type = old.memory_type
        AND n <= 0;
END;
CREATE TRIGGER _mem_counts_memories_au AFTER UPDATE OF status, memory_type ON memories
    WHEN old.status IS NOT new.status OR old.memory_type IS NOT new.memory_type BEGIN
    UPDATE _mem_counts SET n = n - 1 WHERE what = 'memories' AND status = old.status AND memory_type = old.memory_type;
    DELETE FROM _mem_counts WHERE what = 'memories' AND status = old.status AND memory_type = old.memory_type
        AND n <= 0;
    INSERT INTO _mem_counts(what, status, memory_type, n) VALUES ('memories', new.status, new.memory_type, 1)
        ON CONFLICT(what, status, memory_type) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER _mem_counts_associations_ai AFTER INSERT ON associations BEGIN
    INSERT INTO _mem_counts(what, n) VALUES ('associations', 1)
        ON CONFLICT(what, status, memory_type) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER _mem_counts_associations_ad AFTER DELETE ON associations BEGIN
    UPDATE _mem_counts SET n = n - 1 WHERE what = 'associations' AND status = '' AND memory_type = '';
END;
"""

# m011_brief: what the session-start brief (memengine/brief.py) reads, found by index instead of
# a scan of every row (each such scan costs 0.03-0.1 s at 100k, 10x that at 1M): an author's chats
# and dates (its people lines), the newest superseded facts, contacts, pinned memories and the
# candidates ranked by importance and date, a cluster's most central members. The valid_to and
# contacts indexes are partial on rare rows, so a write pays for them only when it is one.
M011_BRIEF_SQL = """\
CREATE INDEX memories_author ON memories(author, status, level, thread, coalesce(event_at, created_at))
    WHERE author IS NOT NULL;
CREATE INDEX memories_rank ON memories(pinned, importance, coalesce(event_at, created_at));
CREATE INDEX memories_valid_to ON memories(valid_to) WHERE valid_to IS NOT NULL;
CREATE INDEX memories_contacts ON memories(source) WHERE source = 'vcf';
CREATE INDEX cluster_members_rank ON cluster_members(cluster_id, similarity DESC, memory_id);
"""

# m012_people_threads: the people lines' chats and dates kept by triggers in a table of one row per
# (author, thread), instead of an index over every authored row (60 B a chat turn, which took
# the file past 2.5 KB a turn), and the exact-duplicate lookup by the first 16 hex digits of the
# hash (82 -> ~30 B a row; the full hash is still compared). Dates only widen: a forgotten
# memory's date stays in its pair's range until the pair has no memory left.
M012_PEOPLE_THREADS_SQL = """\
DROP INDEX IF EXISTS memories_author;
DROP INDEX IF EXISTS memories_hash;
CREATE INDEX memories_hash16 ON memories(substr(content_hash, 1, 16));
CREATE TABLE memory_author_threads (
    author   TEXT NOT NULL,
    thread   TEXT NOT NULL,              -- '' for memories in no thread
    active   INTEGER NOT NULL,           -- active level-0 memories of this pair (rows at 0 are deleted)
    first_at TEXT NOT NULL,              -- min/max of coalesce(event_at, created_at), only ever widened
    last_at  TEXT NOT NULL,
    PRIMARY KEY (author, thread)
) WITHOUT ROWID;
CREATE TRIGGER memory_author_threads_ai AFTER INSERT ON memories
    WHEN new.author IS NOT NULL AND new.status = 'active' AND new.level = 0 BEGIN
    INSERT INTO memory_author_threads(author, thread, active, first_at, last_at)
        VALUES (new.author, coalesce(new.thread, ''), 1, coalesce(new.event_at, new.created_at),
                coalesce(new.event_at, new.created_at))
        ON CONFLICT(author, thread) DO UPDATE SET active = active + 1,
            first_at = min(first_at, excluded.first_at), last_at = max(last_at, excluded.last_at);
END;
CREATE TRIGGER memory_author_threads_ad AFTER DELETE ON memories
    WHEN old.author IS NOT NULL AND old.status = 'active' AND old.level = 0 BEGIN
    UPDATE memory_author_threads SET active = active - 1 WHERE author = old.author AND thread = coalesce(old.thread, '');
    DELETE FROM memory_author_threads WHERE author = old.author AND thread = coalesce(old.thread, '') AND active <= 0;
END;
CREATE TRIGGER memory_author_threads_au AFTER UPDATE OF author, status, level, thread, event_at ON memories
    WHEN old.author IS NOT new.author OR old.status IS NOT new.status OR old.level IS NOT new.level
        OR old.thread IS NOT new.thread OR old.event_at IS NOT new.event_at BEGIN
    UPDATE memory_author_threads SET active = active - 1
        WHERE author = old.author AND thread = coalesce(old.thread, '') AND old.status = 'active' AND old.level = 0;
    DELETE FROM memory_author_threads WHERE author = old.author AND thread = coalesce(old.thread, '') AND active <= 0;
    INSERT INTO memory_author_threads(author, thread, active, first_at, last_at)
        SELECT new.author, coalesce(new.thread, ''), 1, coalesce(new.event_at, new.created_at),
               coalesce(new.event_at, new.created_at)
        WHERE new.author IS NOT NULL AND new.status = 'active' AND new.level = 0
        ON CONFLICT(author, thread) DO UPDATE SET active = active + 1,
            first_at = min(first_at, excluded.first_at), last_at = max(last_at, excluded.last_at);
END;
"""

# m009_signplane: the sign of every dimension of every stored vector, in blocks of 256
# memory ids, for the one-shot kNN shortlist (memengine/signplane.py).
M009_SIGNPLANE_SQL = """\
CREATE TABLE sign_memories (
    block   INTEGER PRIMARY KEY,   -- memory ids block*256 .. block*256+255
    present BLOB NOT NULL,         -- 256 bytes: 1 where that memory has a vector
    bits    BLOB NOT NULL          -- 256 x 48 bytes: each slot's sign bits (1 = positive), packed
);
CREATE TABLE sign_contexts (
    block   INTEGER PRIMARY KEY,
    present BLOB NOT NULL,
    bits    BLOB NOT NULL
);
"""

# m010_derived_context: a turn's neighbour text is no longer stored in its row (~1.2 KB of a
# LoCoMo turn's 1.9 KB row). memories_fts reads ``context`` / ``context_far`` from the view
# memories_text, which derives them from the neighbouring rows (memengine/context.py says how,
# and tests/test_derived_context.py checks the SQL against the Python it replaced). An
# external-content FTS5 delete must be given exactly the values indexed, so every change that
# alters a row's derived text is bracketed by triggers: BEFORE it, 'delete' with the view's
# values (the old state, read, not recomputed); AFTER it, insert with the view's new values,
# for the row and every level-0 row within 4 positions of its old and new place in a thread.
# While _fts_deferred has a row (only inside a store_many transaction, memengine/context.py)
# inserts leave memories_fts to the writer, which brackets the whole batch once.
M010_SQL = """\
DROP TRIGGER memories_ai;
DROP TRIGGER memories_ad;
DROP TRIGGER memories_au;
DROP TRIGGER _keyword_changes_au;
DROP TABLE memories_fts;
-- the columns stay (SQLite 3.50 cannot drop them from this table's text: "incomplete input"), empty
UPDATE memories SET context = '', context_far = '' WHERE context <> '' OR context_far <> '';
-- A thread's turns as they appear in their neighbours' context: memengine.text.bare_text
-- (no leading "[...]" of up to 60 characters, no "Author:" label, no surrounding white space
-- as Python's str.isspace() has it).
CREATE VIEW memories_turns AS
    SELECT id, thread, position, event_at,
           trim(CASE WHEN author <> '' AND substr(s1, 1, length(author) + 1) = author || ':'
                     THEN ltrim(substr(s1, length(author) + 2), char(9, 10, 11, 12, 13, 28, 29, 30, 31, 32, 133, 160, 5760, 8192, 8193, 8194, 8195, 8196, 8197, 8198, 8199, 8200, 8201, 8202, 8232, 8233, 8239, 8287, 12288)) ELSE s1 END,
                char(9, 10, 11, 12, 13, 28, 29, 30, 31, 32, 133, 160, 5760, 8192, 8193, 8194, 8195, 8196, 8197, 8198, 8199, 8200, 8201, 8202, 8232, 8233, 8239, 8287, 12288)) AS bare
    FROM (SELECT id, thread, position, event_at, author,
                 CASE WHEN substr(ltrim(content, char(9, 10, 11, 12, 13, 28, 29, 30, 31, 32, 133, 160, 5760, 8192, 8193, 8194, 8195, 8196, 8197, 8198, 8199, 8200, 8201, 8202, 8232, 8233, 8239, 8287, 12288)), 1, 1) = '['
                           AND instr(substr(ltrim(content, char(9, 10, 11, 12, 13, 28, 29, 30, 31, 32, 133, 160, 5760, 8192, 8193, 8194, 8195, 8196, 8197, 8198, 8199, 8200, 8201, 8202, 8232, 8233, 8239, 8287, 12288)), 2, 61), ']') > 0
                      THEN ltrim(substr(ltrim(content, char(9, 10, 11, 12, 13, 28, 29, 30, 31, 32, 133, 160, 5760, 8192, 8193, 8194, 8195, 8196, 8197, 8198, 8199, 8200, 8201, 8202, 8232, 8233, 8239, 8287, 12288)),
                                        instr(substr(ltrim(content, char(9, 10, 11, 12, 13, 28, 29, 30, 31, 32, 133, 160, 5760, 8192, 8193, 8194, 8195, 8196, 8197, 8198, 8199, 8200, 8201, 8202, 8232, 8233, 8239, 8287, 12288)), 2, 61), ']') + 2), char(9, 10, 11, 12, 13, 28, 29, 30, 31, 32, 133, 160, 5760, 8192, 8193, 8194, 8195, 8196, 8197, 8198, 8199, 8200, 8201, 8202, 8232, 8233, 8239, 8287, 12288))
                      ELSE content END AS s1
          FROM memories
          WHERE level = 0 AND status <> 'deleted' AND thread IS NOT NULL AND position IS NOT NULL);
-- What memories_fts indexes: the row's own text, and its neighbours' within 2 positions
-- (context) and 3-4 positions (context_far), skipping neighbours more than 6 hours away,
-- in thread order, each column cut at 1,200 characters.
CREATE VIEW memories_text AS
    SELECT m.id AS id, m.content AS content, m.tags AS tags, m.date_terms AS date_terms,
        CASE WHEN m.level = 0 AND m.thread IS NOT NULL AND m.position IS NOT NULL THEN coalesce((
            SELECT substr(group_concat(q.bare, ' '), 1, 1200) FROM (
                SELECT n.bare FROM memories_turns n
                WHERE n.thread = m.thread AND n.position BETWEEN m.position - 2 AND m.position + 2
                  AND abs(n.position - m.position) >= 1
                  AND NOT coalesce(abs(unixepoch(n.event_at) - unixepoch(m.event_at)) > 21600, 0)
                ORDER BY n.position, n.id) q), '') ELSE '' END AS context,
        CASE WHEN m.level = 0 AND m.thread IS NOT NULL AND m.position IS NOT NULL THEN coalesce((
            SELECT substr(group_concat(q.bare, ' '), 1, 1200) FROM (
                SELECT n.bare FROM memories_turns n
                WHERE n.thread = m.thread AND n.position BETWEEN m.position - 4 AND m.position + 4
                  AND abs(n.position - m.position) >= 3
                  AND NOT coalesce(abs(unixepoch(n.event_at) - unixepoch(m.event_at)) > 21600, 0)
                ORDER BY n.position, n.id) q), '') ELSE '' END AS context_far
    FROM memories m;
CREATE TABLE _fts_deferred (flag INTEGER PRIMARY KEY);
CREATE VIRTUAL TABLE memories_fts USING fts5(
    content, tags, date_terms, context, context_far,
    content='memories_text', content_rowid='id',
    tokenize='porter unicode61 remove_diacritics 2'
);
-- Write-only views whose INSTEAD OF triggers (re-)index a set of rows with the view's values:
-- one row; or the level-0 rows within 4 positions of one or two places in threads (but
-- ``skip``). The triggers on memories only name the set: a trigger program is set up each
-- time it fires, and these small ones keep an insert that needs nothing (store_many's) cheap.
CREATE VIEW _fts_unindex_row AS SELECT NULL AS id WHERE 0;
CREATE VIEW _fts_index_row AS SELECT NULL AS id WHERE 0;
CREATE VIEW _fts_unindex_near AS
    SELECT NULL AS skip, NULL AS thread, NULL AS position, NULL AS thread2, NULL AS position2 WHERE 0;
CREATE VIEW _fts_index_near AS
    SELECT NULL AS skip, NULL AS thread, NULL AS position, NULL AS thread2, NULL AS position2 WHERE 0;
CREATE TRIGGER _fts_unindex_row_ii INSTEAD OF INSERT ON _fts_unindex_row BEGIN
    INSERT INTO memories_fts(memories_fts, rowid, content, tags, date_terms, context, context_far)
        SELECT 'delete', id, content, tags, date_terms, context, context_far FROM memories_text WHERE id = new.id;
END;
CREATE TRIGGER _fts_index_row_ii INSTEAD OF INSERT ON _fts_index_row BEGIN
    INSERT INTO memories_fts(rowid, content, tags, date_terms, context, context_far)
        SELECT id, content, tags, date_terms, context, context_far FROM memories_text WHERE id = new.id;
END;
CREATE TRIGGER _fts_unindex_near_ii INSTEAD OF INSERT ON _fts_unindex_near BEGIN
    INSERT INTO memories_fts(memories_fts, rowid, content, tags, date_terms, context, context_far)
        SELECT 'delete', id, content, tags, date_terms, context, context_far FROM memories_text WHERE id IN (
        SELECT id FROM memories WHERE level = 0 AND id IS NOT new.skip AND (
            (thread = new.thread AND position BETWEEN new.position - 4 AND new.position + 4)
            OR (thread = new.thread2 AND position BETWEEN new.position2 - 4 AND new.position2 + 4)));
END;
CREATE TRIGGER _fts_index_near_ii INSTEAD OF INSERT ON _fts_index_near BEGIN
    INSERT INTO memories_fts(rowid, content, tags, date_terms, context, context_far)
        SELECT id, content, tags, date_terms, context, context_far FROM memories_text WHERE id IN (
        SELECT id FROM memories WHERE level = 0 AND id IS NOT new.skip AND (
            (thread = new.thread AND position BETWEEN new.position - 4 AND new.position + 4)
            OR (thread = new.thread2 AND position BETWEEN new.position2 - 4 AND new.position2 + 4)));
    INSERT INTO _keyword_changes(memory_id)
        SELECT id FROM memories WHERE level = 0 AND id IS NOT new.skip AND (
            (thread = new.thread AND position BETWEEN new.position - 4 AND new.position + 4)
            OR (thread = new.thread2 AND position BETWEEN new.position2 - 4 AND new.position2 + 4));
END;
CREATE TRIGGER memories_bi BEFORE INSERT ON memories
    WHEN new.thread IS NOT NULL AND new.position IS NOT NULL AND new.level = 0 AND new.status <> 'deleted' AND NOT EXISTS (SELECT 1 FROM _fts_deferred) BEGIN
    INSERT INTO _fts_unindex_near(skip, thread, position) VALUES (NULL, new.thread, new.position);
END;
CREATE TRIGGER memories_ai AFTER INSERT ON memories WHEN NOT EXISTS (SELECT 1 FROM _fts_deferred) BEGIN
    INSERT INTO _fts_index_row(id) VALUES (new.id);
    INSERT INTO _fts_index_near(skip, thread, position) SELECT new.id, new.thread, new.position
        WHERE new.thread IS NOT NULL AND new.position IS NOT NULL AND new.level = 0 AND new.status <> 'deleted';
END;
CREATE TRIGGER memories_bd BEFORE DELETE ON memories BEGIN
    INSERT INTO _fts_unindex_row(id) VALUES (old.id);
    INSERT INTO _fts_unindex_near(skip, thread, position) SELECT old.id, old.thread, old.position
        WHERE old.thread IS NOT NULL AND old.position IS NOT NULL AND old.level = 0 AND old.status <> 'deleted';
END;
CREATE TRIGGER memories_ad AFTER DELETE ON memories BEGIN
    INSERT INTO _fts_index_near(skip, thread, position) SELECT old.id, old.thread, old.position
        WHERE old.thread IS NOT NULL AND old.position IS NOT NULL AND old.level = 0 AND old.status <> 'deleted';
END;
CREATE TRIGGER memories_bu BEFORE UPDATE OF content, tags, date_terms, author, event_at, level, status, thread, position ON memories
    WHEN old.content IS NOT new.content OR old.tags IS NOT new.tags OR old.date_terms IS NOT new.date_terms
    OR old.author IS NOT new.author OR old.event_at IS NOT new.event_at OR old.level IS NOT new.level
    OR old.status IS NOT new.status OR old.thread IS NOT new.thread OR old.position IS NOT new.position BEGIN
    INSERT INTO _fts_unindex_row(id) VALUES (old.id);
    INSERT INTO _fts_unindex_near(skip, thread, position, thread2, position2)
        SELECT old.id, old.thread, old.position, new.thread, new.position WHERE old.content IS NOT new.content OR old.author IS NOT new.author OR old.event_at IS NOT new.event_at
        OR old.level IS NOT new.level OR (old.status = 'deleted') IS NOT (new.status = 'deleted')
        OR old.thread IS NOT new.thread OR old.position IS NOT new.position;
END;
CREATE TRIGGER memories_au AFTER UPDATE OF content, tags, date_terms, author, event_at, level, status, thread, position ON memories
    WHEN old.content IS NOT new.content OR old.tags IS NOT new.tags OR old.date_terms IS NOT new.date_terms
    OR old.author IS NOT new.author OR old.event_at IS NOT new.event_at OR old.level IS NOT new.level
    OR old.status IS NOT new.status OR old.thread IS NOT new.thread OR old.position IS NOT new.position BEGIN
    INSERT INTO _fts_index_row(id) VALUES (new.id);
    INSERT INTO _fts_index_near(skip, thread, position, thread2, position2)
        SELECT old.id, old.thread, old.position, new.thread, new.position WHERE old.content IS NOT new.content OR old.author IS NOT new.author OR old.event_at IS NOT new.event_at
        OR old.level IS NOT new.level OR (old.status = 'deleted') IS NOT (new.status = 'deleted')
        OR old.thread IS NOT new.thread OR old.position IS NOT new.position;
END;
CREATE TRIGGER _keyword_changes_au AFTER UPDATE OF content, tags, date_terms, author, event_at, level, status, thread, position ON memories BEGIN
        INSERT INTO _keyword_changes(memory_id) VALUES (new.id);
    END;
"""


# m013_contradicts: the contradiction edges (a few per store, among up to millions of links) by an
# index of their own, so the brief's middle-band read (``supersession.probably_outdated``) starts
# from them instead of from every active memory: 35 ms -> well under 1 ms at 100k.
M013_CONTRADICTS_SQL = """\
CREATE INDEX associations_contradicts ON associations(source_id, target_id) WHERE edge_type = 'contradicts';
"""


# m014_brief_cache: a counter every write to what the brief reads moves (WAL keeps no per-transaction change
# counter a reader could compare), and the briefs kept against it (memengine/briefcache.py). The tables are
# those a brief reads that anything writes directly; the ones only triggers of these fill (memory_authors,
# memory_author_threads, _mem_counts, the change logs) move with them, and vectors move with their sign
# planes (signplane.put beside every vec0 write). A table a later migration adds that the brief reads gets
# its three triggers in that migration.
M014_BRIEF_CACHE_SQL = """\
CREATE TABLE _mem_version (n INTEGER NOT NULL);
INSERT INTO _mem_version(n) VALUES (0);
CREATE TABLE _brief_cache (
    budget  INTEGER PRIMARY KEY,
    version INTEGER NOT NULL,
    entry   TEXT    NOT NULL
);
CREATE TRIGGER _mem_version_memories_ai AFTER INSERT ON memories BEGIN UPDATE _mem_version SET n = n + 1; END;
CREATE TRIGGER _mem_version_memories_au AFTER UPDATE ON memories BEGIN UPDATE _mem_version SET n = n + 1; END;
CREATE TRIGGER _mem_version_memories_ad AFTER DELETE ON memories BEGIN UPDATE _mem_version SET n = n + 1; END;
CREATE TRIGGER _mem_version_associations_ai AFTER INSERT ON associations BEGIN UPDATE _mem_version SET n = n + 1; END;
CREATE TRIGGER _mem_version_associations_au AFTER UPDATE ON associations BEGIN UPDATE _mem_version SET n = n + 1; END;
CREATE TRIGGER _mem_version_associations_ad AFTER DELETE ON associations BEGIN UPDATE _mem_version SET n = n + 1; END;
CREATE TRIGGER _mem_version_clusters_ai AFTER INSERT ON clusters BEGIN UPDATE _mem_version SET n = n + 1; END;
CREATE TRIGGER _mem_version_clusters_au AFTER UPDATE ON clusters BEGIN UPDATE _mem_version SET n = n + 1; END;
CREATE TRIGGER _mem_version_clusters_ad AFTER DELETE ON clusters BEGIN UPDATE _mem_version SET n = n + 1; END;
CREATE TRIGGER _mem_version_cluster_members_ai AFTER INSERT ON cluster_members BEGIN UPDATE _mem_version SET n = n + 1; END;
CREATE TRIGGER _mem_version_cluster_members_au AFTER UPDATE ON cluster_members BEGIN UPDATE _mem_version SET n = n + 1; END;
CREATE TRIGGER _mem_version_cluster_members_ad AFTER DELETE ON cluster_members BEGIN UPDATE _mem_version SET n = n + 1; END;
CREATE TRIGGER _mem_version_contradictions_ai AFTER INSERT ON contradictions BEGIN UPDATE _mem_version SET n = n + 1; END;
CREATE TRIGGER _mem_version_contradictions_au AFTER UPDATE ON contradictions BEGIN UPDATE _mem_version SET n = n + 1; END;
CREATE TRIGGER _mem_version_contradictions_ad AFTER DELETE ON contradictions BEGIN UPDATE _mem_version SET n = n + 1; END;
CREATE TRIGGER _mem_version_aliases_ai AFTER INSERT ON aliases BEGIN UPDATE _mem_version SET n = n + 1; END;
CREATE TRIGGER _mem_version_aliases_au AFTER UPDATE ON aliases BEGIN UPDATE _mem_version SET n = n + 1; END;
CREATE TRIGGER _mem_version_aliases_ad AFTER DELETE ON aliases BEGIN UPDATE _mem_version SET n = n + 1; END;
CREATE TRIGGER _mem_version_shared_memories_ai AFTER INSERT ON shared_memories BEGIN UPDATE _mem_version SET n = n + 1; END;
CREATE TRIGGER _mem_version_shared_memories_au AFTER UPDATE ON shared_memories BEGIN UPDATE _mem_version SET n = n + 1; END;
CREATE TRIGGER _mem_version_shared_memories_ad AFTER DELETE ON shared_memories BEGIN UPDATE _mem_version SET n = n + 1; END;
CREATE TRIGGER _mem_version_share_offers_ai AFTER INSERT ON share_offers BEGIN UPDATE _mem_version SET n = n + 1; END;
CREATE TRIGGER _mem_version_share_offers_au AFTER UPDATE ON share_offers BEGIN UPDATE _mem_version SET n = n + 1; END;
CREATE TRIGGER _mem_version_share_offers_ad AFTER DELETE ON share_offers BEGIN UPDATE _mem_version SET n = n + 1; END;
CREATE TRIGGER _mem_version_share_bundles_ai AFTER INSERT ON share_bundles BEGIN UPDATE _mem_version SET n = n + 1; END;
CREATE TRIGGER _mem_version_share_bundles_au AFTER UPDATE ON share_bundles BEGIN UPDATE _mem_version SET n = n + 1; END;
CREATE TRIGGER _mem_version_share_bundles_ad AFTER DELETE ON share_bundles BEGIN UPDATE _mem_version SET n = n + 1; END;
CREATE TRIGGER _mem_version__mem_meta_ai AFTER INSERT ON _mem_meta BEGIN UPDATE _mem_version SET n = n + 1; END;
CREATE TRIGGER _mem_version__mem_meta_au AFTER UPDATE ON _mem_meta BEGIN UPDATE _mem_version SET n = n + 1; END;
CREATE TRIGGER _mem_version__mem_meta_ad AFTER DELETE ON _mem_meta BEGIN UPDATE _mem_version SET n = n + 1; END;
CREATE TRIGGER _mem_version_sign_memories_ai AFTER INSERT ON sign_memories BEGIN UPDATE _mem_version SET n = n + 1; END;
CREATE TRIGGER _mem_version_sign_memories_au AFTER UPDATE ON sign_memories BEGIN UPDATE _mem_version SET n = n + 1; END;
CREATE TRIGGER _mem_version_sign_memories_ad AFTER DELETE ON sign_memories BEGIN UPDATE _mem_version SET n = n + 1; END;
CREATE TRIGGER _mem_version_sign_contexts_ai AFTER INSERT ON sign_contexts BEGIN UPDATE _mem_version SET n = n + 1; END;
CREATE TRIGGER _mem_version_sign_contexts_au AFTER UPDATE ON sign_contexts BEGIN UPDATE _mem_version SET n = n + 1; END;
CREATE TRIGGER _mem_version_sign_contexts_ad AFTER DELETE ON sign_contexts BEGIN UPDATE _mem_version SET n = n + 1; END;
"""


# m015_people_faded: the (author, thread) pairs of the rows the nightly decay ARCHIVED, kept by triggers as
# memory_author_threads keeps the active ones (m012), so the brief's People still knows the members of an imported
# chat after its turns faded (brief29: a family group imported in February had no one in People by April), without
# a scan of the archived rows (their number only grows). Filled by triggers on memories only: the brief cache's
# counter moves with them.
M015_PEOPLE_FADED_SQL = """\
CREATE TABLE memory_author_threads_faded (
    author   TEXT NOT NULL,
    thread   TEXT NOT NULL,              -- '' for memories in no thread
    archived INTEGER NOT NULL,           -- archived level-0 memories of this pair (rows at 0 are deleted)
    first_at TEXT NOT NULL,              -- min/max of coalesce(event_at, created_at), only ever widened
    last_at  TEXT NOT NULL,
    PRIMARY KEY (author, thread)
) WITHOUT ROWID;
CREATE TRIGGER memory_author_threads_faded_ai AFTER INSERT ON memories
    WHEN new.author IS NOT NULL AND new.status = 'archived' AND new.level = 0 BEGIN
    INSERT INTO memory_author_threads_faded(author, thread, archived, first_at, last_at)
        VALUES (new.author, coalesce(new.thread, ''), 1, coalesce(new.event_at, new.created_at),
                coalesce(new.event_at, new.created_at))
        ON CONFLICT(author, thread) DO UPDATE SET archived = archived + 1,
            first_at = min(first_at, excluded.first_at), last_at = max(last_at, excluded.last_at);
END;
CREATE TRIGGER memory_author_threads_faded_ad AFTER DELETE ON memories
    WHEN old.author IS NOT NULL AND old.status = 'archived' AND old.level = 0 BEGIN
    UPDATE memory_author_threads_faded SET archived = archived - 1
        WHERE author = old.author AND thread = coalesce(old.thread, '');
    DELETE FROM memory_author_threads_faded
        WHERE author = old.author AND thread = coalesce(old.thread, '') AND archived <= 0;
END;
CREATE TRIGGER memory_author_threads_faded_au AFTER UPDATE OF author, status, level, thread, event_at ON memories
    WHEN (old.status = 'archived' OR new.status = 'archived') AND (old.author IS NOT new.author
        OR old.status IS NOT new.status OR old.level IS NOT new.level OR old.thread IS NOT new.thread
        OR old.event_at IS NOT new.event_at) BEGIN
    UPDATE memory_author_threads_faded SET archived = archived - 1
        WHERE author = old.author AND thread = coalesce(old.thread, '') AND old.status = 'archived' AND old.level = 0;
    DELETE FROM memory_author_threads_faded
        WHERE author = old.author AND thread = coalesce(old.thread, '') AND archived <= 0;
    INSERT INTO memory_author_threads_faded(author, thread, archived, first_at, last_at)
        SELECT new.author, coalesce(new.thread, ''), 1, coalesce(new.event_at, new.created_at),
               coalesce(new.event_at, new.created_at)
        WHERE new.author IS NOT NULL AND new.status = 'archived' AND new.level = 0
        ON CONFLICT(author, thread) DO UPDATE SET archived = archived + 1,
            first_at = min(first_at, excluded.first_at), last_at = max(last_at, excluded.last_at);
END;
"""


# m016_time_kind: which kind of time a row's ``event_at`` holds (memengine/timekind.py reads it): 'utc' — a moment in
# UTC (``store --at "2021-01-01 00:05"``, an export that carries a zone, or no event_at: ``created_at`` is UTC);
# 'floating' — a wall clock as a zone-less chat export wrote it (WhatsApp's ``1/1/21, 12:05 AM``), read on the user's
# clock; 'day' — a bare day (``store --at 2025-03-01``). Filled by the migration from each row's source
# (memengine/migrations.py, _m016_time_kind), then by every write (memengine/writes.py).
M016_TIME_KIND_SQL = """\
ALTER TABLE memories ADD COLUMN time_kind TEXT NOT NULL DEFAULT 'utc' CHECK (time_kind IN ('utc', 'floating', 'day'));
"""
