-- AlterTable
ALTER TABLE "Task" ADD COLUMN "webhookKeyId" INTEGER;
ALTER TABLE "Task" ADD COLUMN "webhookUrl" TEXT;

-- AlterTable
ALTER TABLE "TaskRun" ADD COLUMN "notifiedAt" DATETIME;

-- AlterTable
ALTER TABLE "ToolCall" ADD COLUMN "notifiedAt" DATETIME;

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "taskId" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "keyId" INTEGER,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastStatus" INTEGER,
    "lastError" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deliveredAt" DATETIME
);

-- AlterTable (in place: a column with a default)
ALTER TABLE "ApiKey" ADD COLUMN "webhookSecret" TEXT NOT NULL DEFAULT '';

-- CreateIndex
CREATE INDEX "WebhookDelivery_status_nextAttemptAt_idx" ON "WebhookDelivery"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_taskId_createdAt_idx" ON "WebhookDelivery"("taskId", "createdAt");

-- CreateIndex
CREATE INDEX "TaskRun_notifiedAt_status_idx" ON "TaskRun"("notifiedAt", "status");

-- CreateIndex
CREATE INDEX "ToolCall_notifiedAt_idx" ON "ToolCall"("notifiedAt");
