-- Batch extraction (Store.land_documents, Store.extract_documents). A migration may land an
-- archive's documents first and extract them later, in bulk: such a document is routed
-- 'unextracted' until its extraction runs. Every fact records the extractor that wrote it
-- (its name carries its version: 'rules/v1', 'ollama/llama3.1:8b'), so an extraction by
-- another extractor is told apart from the first; NULL for facts written before this
-- migration and for imported and timeline facts (no extractor wrote them).
ALTER TABLE documents DROP CONSTRAINT documents_routed_check;
ALTER TABLE documents ADD CONSTRAINT documents_routed_check
    CHECK (routed IN ('facts', 'documents-only', 'index-page', 'unextracted'));
CREATE INDEX documents_unextracted ON documents (id) WHERE routed = 'unextracted';
ALTER TABLE facts ADD COLUMN extracted_by text
    CHECK (extracted_by IS NULL OR length(extracted_by) BETWEEN 1 AND 200);
