-- A draft or pending event has no slug until it is published (WordPress gives a post name only then).
-- AlterTable
ALTER TABLE "Event" ALTER COLUMN "slug" DROP NOT NULL;
