-- The store's own triage queue of gaps (seed 000 §7), seeded with its three entries.

CREATE TABLE open_questions (
    id         integer PRIMARY KEY,
    title      text NOT NULL,
    body       text NOT NULL,
    risk       text NOT NULL CHECK (risk IN ('low', 'medium', 'high')),
    cost       text NOT NULL CHECK (cost IN ('low', 'medium', 'high')),
    status     text NOT NULL CHECK (status IN ('open', 'parked', 'blocker', 'resolved')),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- Evidence is appended, never rewritten: each eval run or person adds a dated note.
CREATE TABLE open_question_evidence (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    question_id integer NOT NULL REFERENCES open_questions (id),
    note        text NOT NULL CHECK (length(btrim(note)) > 0),
    recorded_by text,
    recorded_at timestamptz NOT NULL DEFAULT now()
);

INSERT INTO open_questions (id, title, body, risk, cost, status) VALUES
(1, 'Extractor negation-inversion and identity-mangle — cause unconfirmed',
 'Two extraction incidents were observed twice in production: a negation inversion (a fact '
 'recorded with its polarity flipped, the "fact 74" incident) and an identity mangle (a fact '
 'attached to the wrong subject, the "fact 161" incident). Neither has been reproduced under '
 'synthetic eval and the cause is unconfirmed. This is not a claim that the extractor is '
 'defect-free, nor that these are fixed: an open gap held honestly. Not to be conflated with '
 'the sentence-shredding defect.',
 'high', 'high', 'blocker'),
(2, 'Conflict-density paraphrase precision — unmeasured',
 'The near-hit boundary between a reworded restatement of one fact and a genuine '
 'changed-value conflict is not measured. Current behaviour errs safe (interrupt rather than '
 'silent merge) but the threshold is untuned. Tuning needs a fresh eval set.',
 'high', 'low', 'open'),
(3, 'Per-tag STATE staleness defaults',
 'STATE staleness used a per-fact expected_lifetime hint or a single global default. Per-tag '
 'default cadences (so a whole class of STATE ages on its own clock) were noted but not built.',
 'low', 'low', 'parked');

INSERT INTO open_question_evidence (question_id, note, recorded_by) VALUES
(3, 'Built: tags.default_lifetime (sql/001_core.sql), set with Store.registry_set_lifetime(tag, '
    'lifetime) or `factstore tags lifetime TAG 2d`. A STATE fact with no hint of its own ages '
    'by the shortest default among its tags, else the global state_default_lifetime setting; '
    'recall''s stale-state label names which clock applied.', 'schema 002');
UPDATE open_questions SET status = 'resolved' WHERE id = 3;
