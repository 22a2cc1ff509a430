-- AlterTable
ALTER TABLE "CalendarChange" ADD COLUMN "place" BIGINT;

-- AlterTable
ALTER TABLE "DataVersion" ADD COLUMN "place" BIGINT;

-- CreateIndex
CREATE INDEX "CalendarChange_place_id_idx" ON "CalendarChange"("place", "id");
