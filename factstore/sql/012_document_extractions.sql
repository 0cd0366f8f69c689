-- Which extractor has read which document (its name carries its version). A document read
-- again by another extractor (Store.extract_documents(regenerate=True)) gets that
-- extractor's facts as a new generation beside the first: a fact the first generation
-- already holds for the same quote is left unchanged (the same document never testifies
-- twice), so a re-extraction never adds support. Documents read before this migration are
-- filled in from the extractors their facts name.
CREATE TABLE document_extractions (
    document_id  bigint NOT NULL REFERENCES documents (id),
    extractor    text NOT NULL CHECK (length(extractor) BETWEEN 1 AND 200),
    extracted_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (document_id, extractor)
);
INSERT INTO document_extractions (document_id, extractor)
SELECT DISTINCT document_id, extracted_by FROM facts
WHERE document_id IS NOT NULL AND extracted_by IS NOT NULL
ON CONFLICT DO NOTHING;
