-- Confidence as double precision: real (float4) underflows below ~1e-38, so a valid
-- confidence such as 1e-50 (the schema allows any number in [0, 1]) failed on write.
ALTER TABLE facts ALTER COLUMN confidence TYPE double precision;
ALTER TABLE evidence ALTER COLUMN confidence TYPE double precision;
