-- AlterTable
ALTER TABLE "Task" ADD COLUMN     "keyId" INTEGER;

-- AlterTable
ALTER TABLE "TaskStep" ADD COLUMN     "costUsd" DOUBLE PRECISION;

-- CreateIndex
CREATE INDEX "Task_keyId_idx" ON "Task"("keyId");
