-- Ids as a fresh WordPress install hands them out: posts 1–4 and term 1 belong to WordPress's
-- default content, so the first event/venue/organizer is 5 and the first category/tag is 2.
-- Recorded responses of the original then line up with Almanac's id for id.
INSERT INTO "sqlite_sequence" ("name", "seq") SELECT 'Post', 4 WHERE NOT EXISTS (SELECT 1 FROM "sqlite_sequence" WHERE "name" = 'Post');
UPDATE "sqlite_sequence" SET "seq" = MAX("seq", 4) WHERE "name" = 'Post';
INSERT INTO "sqlite_sequence" ("name", "seq") SELECT 'Term', 1 WHERE NOT EXISTS (SELECT 1 FROM "sqlite_sequence" WHERE "name" = 'Term');
UPDATE "sqlite_sequence" SET "seq" = MAX("seq", 1) WHERE "name" = 'Term';
