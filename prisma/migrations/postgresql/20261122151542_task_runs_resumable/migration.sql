-- AlterTable
ALTER TABLE "TaskRun" DROP COLUMN "stopRequested",
ADD COLUMN     "recoveries" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "shareToken" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "state" TEXT NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "ToolCall" DROP COLUMN "messages";

-- CreateIndex
CREATE INDEX "TaskRun_detailedStatus_createdAt_idx" ON "TaskRun"("detailedStatus", "createdAt");
