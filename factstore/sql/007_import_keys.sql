-- A stable key per imported record, so an import re-run (or resumed after a crash) skips
-- what already landed instead of storing it twice. The exporter's own id when it gives one
-- ('key:<id>'), else a digest of what the record says and where it came from ('sha256:...',
-- factstore.backfill.record_key). NULL for facts the write path made.
ALTER TABLE facts ADD COLUMN import_key text;
CREATE UNIQUE INDEX facts_import_key ON facts (import_key) WHERE import_key IS NOT NULL;
