-- CreateTable
CREATE TABLE "CalendarWebhook" (
    "id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "types" TEXT NOT NULL DEFAULT '[]',
    "secret" TEXT NOT NULL,
    "cursor" TEXT NOT NULL,
    "paused" BOOLEAN NOT NULL DEFAULT false,
    "lastError" TEXT NOT NULL DEFAULT '',
    "userId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CalendarWebhook_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CalendarWebhookDelivery" (
    "id" TEXT NOT NULL,
    "webhookId" TEXT NOT NULL,
    "cursor" TEXT NOT NULL,
    "changeCount" INTEGER NOT NULL,
    "body" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastStatus" INTEGER,
    "lastError" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deliveredAt" TIMESTAMP(3),

    CONSTRAINT "CalendarWebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "CalendarWebhook_paused_idx" ON "CalendarWebhook"("paused");

-- CreateIndex
CREATE INDEX "CalendarWebhookDelivery_status_nextAttemptAt_idx" ON "CalendarWebhookDelivery"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "CalendarWebhookDelivery_webhookId_createdAt_idx" ON "CalendarWebhookDelivery"("webhookId", "createdAt");

-- AddForeignKey
ALTER TABLE "CalendarWebhookDelivery" ADD CONSTRAINT "CalendarWebhookDelivery_webhookId_fkey" FOREIGN KEY ("webhookId") REFERENCES "CalendarWebhook"("id") ON DELETE CASCADE ON UPDATE CASCADE;
