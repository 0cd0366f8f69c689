-- Subject-less timeline reads walk the timeline facts newest first and stop once they have
-- enough keys, instead of grouping every row (seconds at a million facts). The walk pages by
-- (t_captured, id), so the index carries both.
DROP INDEX IF EXISTS facts_timeline_recent;
CREATE INDEX facts_timeline_recent ON facts (t_captured DESC, id DESC) WHERE attribute IS NOT NULL;
