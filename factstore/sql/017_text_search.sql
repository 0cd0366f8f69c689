-- Hybrid recall (issue 17): Postgres full-text search beside the pgvector kNN, over facts and
-- documents, always. A generated tsvector is never out of step with its text, and the GIN
-- index answers websearch_to_tsquery matches; ts_rank_cd ranks them.
--
-- 'english' stems and drops stop words, so "moved" finds "move" and "the" finds nothing.
-- Every run of characters that are not letters or digits is a space first, on both sides
-- (recall splits a question the same way): the parser reads "svc-02" as 'svc' and the
-- signed number '-02', so "svc-02" in a question would never find it; split, both read
-- 'svc' and '02', and ts_rank_cd ranks the two adjacent higher. A
-- fact is searched by its statement and its verbatim quote (the quote keeps the words the
-- speaker used; the statement, the rewrite "I" -> the speaker's name). A document by its
-- first 200,000 characters: a tsvector holds at most 1 MB, and a capture's opening is where
-- a question's words are most often found; the vector kNN still covers the whole capture.

ALTER TABLE facts ADD COLUMN tsv tsvector GENERATED ALWAYS AS (
    to_tsvector('english'::regconfig, regexp_replace(
        statement || ' ' || coalesce(evidence_quote, ''), '[^[:alnum:]]+', ' ', 'g'))
) STORED;
-- Only retrievable facts are ever searched (recall's predicate names the same verdicts).
CREATE INDEX facts_tsv ON facts USING gin (tsv)
    WHERE verdict IN ('active', 'contested', 'parked');

ALTER TABLE documents ADD COLUMN tsv tsvector GENERATED ALWAYS AS (
    to_tsvector('english'::regconfig,
                regexp_replace(left(content, 200000), '[^[:alnum:]]+', ' ', 'g'))
) STORED;
CREATE INDEX documents_tsv ON documents USING gin (tsv);

-- The words of a question as one OR query over a table's tsv, leaving out the words that
-- table holds too often to search by. websearch_to_tsquery would AND the words, so a
-- question would match only the rows holding every one of them; recall ORs them and lets
-- ts_rank_cd rank the rows holding more of them higher. But ranking reads every match, and
-- a word in most rows ("svc" in an ops log, a speaker's name in a chat) costs a ranking of
-- most of the table while telling nothing apart. ANALYZE already counts the most common
-- lexemes of a tsvector column (pg_stats.most_common_elems and their frequencies): a word
-- in more than max_share of the rows tells little apart (a chat speaker's name opens half
-- the turns), and one in more than max_rows rows costs too much to rank; either is left
-- out. A table never analyzed keeps every word (autovacuum analyzes a table soon after it
-- grows; a bulk load can run ANALYZE). NULL when no word is left: `tsv @@ NULL` matches
-- nothing.
CREATE FUNCTION search_query(tbl regclass, question text, max_rows double precision,
                             max_share double precision)
RETURNS tsquery LANGUAGE sql STABLE AS $$
    WITH terms AS (
        SELECT DISTINCT t AS lexeme FROM unnest(tsvector_to_array(to_tsvector(
            'english'::regconfig, regexp_replace(question, '[^[:alnum:]]+', ' ', 'g')))) t
    ), common AS (
        SELECT e.lexeme FROM pg_class c
        JOIN pg_namespace n ON n.oid = c.relnamespace
        JOIN pg_stats s ON s.schemaname = n.nspname AND s.tablename = c.relname
            AND s.attname = 'tsv'
        CROSS JOIN LATERAL unnest(s.most_common_elems::text::text[],
                                  s.most_common_elem_freqs) AS e(lexeme, freq)
        WHERE c.oid = tbl AND e.lexeme IS NOT NULL
          AND (e.freq > max_share OR e.freq * c.reltuples > max_rows)
    )
    SELECT string_agg(quote_literal(lexeme), ' | ' ORDER BY lexeme)::tsquery
    FROM terms WHERE lexeme NOT IN (SELECT lexeme FROM common)
$$;
