-- Ids as a fresh WordPress install hands them out: posts 1–4 and term 1 belong to WordPress's
-- default content, so the first event/venue/organizer is 5 and the first category/tag is 2.
-- Recorded responses of the original then line up with Almanac's id for id.
SELECT setval(pg_get_serial_sequence('"Post"', 'id'), GREATEST(4, (SELECT COALESCE(MAX("id"), 0) FROM "Post")));
SELECT setval(pg_get_serial_sequence('"Term"', 'id'), GREATEST(1, (SELECT COALESCE(MAX("id"), 0) FROM "Term")));
