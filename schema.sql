-- mem schema: the whole current schema, for reading. Stores are built by the frozen,
-- named migrations in memengine/migrations.py (m001 is the first release's schema); a
-- schema change is a new migration there plus the same change here. A fresh store, one
-- migrated from m001, and this file applied to an empty database have the same schema
-- (tests/test_migrations.py).
--
-- Timestamps are ISO-8601 text 'YYYY-MM-DDTHH:MM:SS'. created_at / updated_at /
-- last_accessed_at / valid_* are UTC. event_at is the wall-clock time the thing
-- happened as the source gave it (a chat export's local time stays local), so that
-- "what happened on 12 March" matches what the user saw; time_kind (m016) says which:
-- 'utc', 'floating' (a wall clock, no zone) or 'day'.

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
    context          TEXT    NOT NULL DEFAULT '',  -- unused since m010 (always ''): see memories_text
    context_far      TEXT    NOT NULL DEFAULT '',  -- unused since m010 (always '')
    time_kind        TEXT    NOT NULL DEFAULT 'utc' CHECK (time_kind IN ('utc', 'floating', 'day'))
                                                   -- what event_at holds (m016, memengine/timekind.py): a UTC
                                                   -- moment, a zone-less chat's wall clock as written, or a bare day
);

CREATE UNIQUE INDEX memories_source_ref ON memories(source, ref) WHERE ref IS NOT NULL;
CREATE INDEX memories_hash16 ON memories(substr(content_hash, 1, 16));  -- m012: the exact-duplicate lookup
CREATE INDEX memories_status_type ON memories(status, memory_type);
CREATE INDEX memories_event_at ON memories(event_at);
CREATE INDEX memories_thread ON memories(thread, position) WHERE thread IS NOT NULL;
CREATE INDEX memories_level ON memories(level) WHERE level > 0;
-- m011_brief: what the session-start brief reads without a scan of every row
CREATE INDEX memories_rank ON memories(pinned, importance, coalesce(event_at, created_at));
CREATE INDEX memories_valid_to ON memories(valid_to) WHERE valid_to IS NOT NULL;
CREATE INDEX memories_contacts ON memories(source) WHERE source = 'vcf';

-- The keyword index (m010_derived_context). A turn's neighbours' text is indexed with it
-- (context, context_far) but stored nowhere: memories_fts is an external-content FTS5 table
-- over the view memories_text, which derives that text from the neighbouring rows. FTS5 must
-- be told exactly the values it indexed on delete, so every change that alters a row's
-- derived text is bracketed: BEFORE it, 'delete' with the view's (old) values; AFTER it,
-- insert with the view's new values, for the row and the level-0 rows within 4 positions
-- of its old and new place in a thread. (INSERT OR REPLACE on memories would bracket twice:
-- nothing uses it.) store_many brackets a whole batch once (memengine/context.py).
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

-- One vector per memory. Large stores search an in-process copy (memengine.vectors.VectorMatrix).
-- int8, scaled per vector so its largest component is +-127 (cosine needs no scale):
-- 384 bytes instead of 1,536, cosine to the float vector >= 0.9999 (memengine.vectors.vec_blob).
CREATE VIRTUAL TABLE vec_memories USING vec0(
    memory_id INTEGER PRIMARY KEY,
    embedding int8[384] distance_metric=cosine
);
-- Second vector per conversational memory: the turn embedded with its neighbours.
CREATE VIRTUAL TABLE vec_contexts USING vec0(
    memory_id INTEGER PRIMARY KEY,
    embedding int8[384] distance_metric=cosine
);
-- The sign plane (m009): the sign of every dimension of every vector above, in blocks of 256
-- memory ids, for the one-shot kNN shortlist (memengine/signplane.py); kept exact by the
-- write path, checked and rebuilt by doctor.
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
CREATE INDEX associations_contradicts ON associations(source_id, target_id) WHERE edge_type = 'contradicts';  -- m013

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
-- m011_brief: a cluster's most central members, for the brief's topic candidates
CREATE INDEX cluster_members_rank ON cluster_members(cluster_id, similarity DESC, memory_id);

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

-- Which migrations this file has had (memengine.migrations.migrate).
CREATE TABLE _mem_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL);

-- Sharing (m002_sharing): offers, bundles, the pool, and triggers that refuse episodic,
-- episodic-derived or partner-derived memories in shared_memories whatever SQL is run.
CREATE TABLE share_offers (
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

CREATE INDEX share_offers_partner ON share_offers(owner_a, owner_b);

CREATE TABLE share_bundles (
        digest      TEXT PRIMARY KEY,
        sender      TEXT NOT NULL,
        imported_at TEXT NOT NULL,
        summary     TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(summary))
    );

CREATE TRIGGER shared_memories_guard_bi BEFORE INSERT ON shared_memories
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

CREATE TRIGGER shared_memories_guard_bu BEFORE UPDATE ON shared_memories
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

CREATE TRIGGER shared_memories_offer_bi BEFORE INSERT ON shared_memories
    WHEN NOT EXISTS (SELECT 1 FROM share_offers o WHERE o.offer_id = new.offer_id AND o.direction = new.direction)
    BEGIN
        SELECT RAISE(ABORT, 'shared_memories row without a matching share_offers offer');
    END;

CREATE VIEW share_pool AS
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

-- Change logs in-process copies catch up from (m003, m004): memory ids whose keyword-indexed
-- text (memengine.keyword_index) or recall filter columns (memengine.liveset) changed,
-- trimmed to the last 20,000 entries.
CREATE TABLE _keyword_changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, memory_id INTEGER NOT NULL);
CREATE TRIGGER _keyword_changes_ai AFTER INSERT ON memories BEGIN
        INSERT INTO _keyword_changes(memory_id) VALUES (new.id);
    END;
CREATE TRIGGER _keyword_changes_ad AFTER DELETE ON memories BEGIN
        INSERT INTO _keyword_changes(memory_id) VALUES (old.id);
    END;
CREATE TRIGGER _keyword_changes_au AFTER UPDATE OF content, tags, date_terms, author, event_at, level, status, thread, position ON memories BEGIN
        INSERT INTO _keyword_changes(memory_id) VALUES (new.id);
    END;
CREATE TRIGGER _keyword_changes_trim AFTER INSERT ON _keyword_changes WHEN new.seq % 1000 = 0 BEGIN
        DELETE FROM _keyword_changes WHERE seq <= new.seq - 20000;
    END;
CREATE TABLE _status_changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, memory_id INTEGER NOT NULL);
CREATE TRIGGER _status_changes_au AFTER UPDATE OF status, level, source, valid_to ON memories BEGIN
        INSERT INTO _status_changes(memory_id) VALUES (new.id);
    END;
CREATE TRIGGER _status_changes_ad AFTER DELETE ON memories BEGIN
        INSERT INTO _status_changes(memory_id) VALUES (old.id);
    END;
CREATE TRIGGER _status_changes_trim AFTER INSERT ON _status_changes WHEN new.seq % 1000 = 0 BEGIN
        DELETE FROM _status_changes WHERE seq <= new.seq - 20000;
    END;

-- The people list (m007): active memories per author, kept exact by these triggers; read by
-- recall/people.py instead of SELECT DISTINCT author over every row.
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

-- The people lines' chats and dates (m012): one row per (author, thread) of active level-0
-- memories, kept by these triggers; read by brief.people_lines instead of the rows. Dates only
-- widen: a forgotten memory's date stays until its pair has no memory left.
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

-- What `stats` shows (m008): memories per status and type, and edges, kept exact by these
-- triggers; read by Maintenance.stats instead of counting every row.
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

-- m014_brief_cache: _mem_version moves with every write to a table the brief reads (one trigger per
-- table and event); _brief_cache keeps a brief per token budget made at one version
-- (memengine/briefcache.py: what else a kept brief is checked against: time, code, settings).
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

-- m015_people_faded: the (author, thread) pairs of the archived rows (the brief's People keeps the
-- members of a chat whose turns faded), kept by triggers like memory_author_threads
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
