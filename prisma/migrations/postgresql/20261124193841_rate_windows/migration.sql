-- CreateTable
CREATE TABLE "RateWindow" (
    "keyHash" TEXT NOT NULL,
    "minute" INTEGER NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "RateWindow_pkey" PRIMARY KEY ("keyHash","minute")
);
