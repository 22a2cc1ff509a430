-- AlterTable
ALTER TABLE "Task" ADD COLUMN "keyId" INTEGER;

-- AlterTable
ALTER TABLE "TaskStep" ADD COLUMN "costUsd" REAL;

-- CreateIndex
CREATE INDEX "Task_keyId_idx" ON "Task"("keyId");
