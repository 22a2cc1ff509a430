-- CreateTable
CREATE TABLE "CalendarWebhook" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "url" TEXT NOT NULL,
    "types" TEXT NOT NULL DEFAULT '[]',
    "secret" TEXT NOT NULL,
    "cursor" TEXT NOT NULL,
    "paused" BOOLEAN NOT NULL DEFAULT false,
    "lastError" TEXT NOT NULL DEFAULT '',
    "userId" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "CalendarWebhookDelivery" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "webhookId" TEXT NOT NULL,
    "cursor" TEXT NOT NULL,
    "changeCount" INTEGER NOT NULL,
    "body" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastStatus" INTEGER,
    "lastError" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deliveredAt" DATETIME,
    CONSTRAINT "CalendarWebhookDelivery_webhookId_fkey" FOREIGN KEY ("webhookId") REFERENCES "CalendarWebhook" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "CalendarWebhook_paused_idx" ON "CalendarWebhook"("paused");

-- CreateIndex
CREATE INDEX "CalendarWebhookDelivery_status_nextAttemptAt_idx" ON "CalendarWebhookDelivery"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "CalendarWebhookDelivery_webhookId_createdAt_idx" ON "CalendarWebhookDelivery"("webhookId", "createdAt");
