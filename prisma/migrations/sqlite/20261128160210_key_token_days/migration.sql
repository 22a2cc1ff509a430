-- CreateTable
CREATE TABLE "KeyTokenDay" (
    "keyId" INTEGER NOT NULL,
    "day" TEXT NOT NULL,
    "tokens" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("keyId", "day")
);

-- What the keys' runs used so far, by UTC day, so the budgets of the day of the upgrade hold
-- (createdAt is kept as Unix milliseconds or as ISO text in UTC, depending on the writer).
INSERT INTO "KeyTokenDay" ("keyId", "day", "tokens")
SELECT t."keyId",
       CASE typeof(s."createdAt") WHEN 'integer' THEN strftime('%Y-%m-%d', s."createdAt" / 1000, 'unixepoch') ELSE substr(s."createdAt", 1, 10) END,
       SUM(s."tokens")
FROM "TaskStep" s JOIN "TaskRun" r ON r."id" = s."runId" JOIN "Task" t ON t."id" = r."taskId"
WHERE t."keyId" IS NOT NULL AND s."tokens" > 0
GROUP BY 1, 2;
