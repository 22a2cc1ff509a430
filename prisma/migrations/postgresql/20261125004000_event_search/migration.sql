-- Search (WordPress's `LIKE '%term%'` on title, excerpt and content, case-insensitive) with an
-- index, so that a rare term does not read every event: trigram GIN indexes serve ILIKE '%…%'.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "Event_title_trgm_idx" ON "Event" USING GIN ("title" gin_trgm_ops);
CREATE INDEX "Event_excerpt_trgm_idx" ON "Event" USING GIN ("excerpt" gin_trgm_ops);
CREATE INDEX "Event_content_trgm_idx" ON "Event" USING GIN ("content" gin_trgm_ops);
