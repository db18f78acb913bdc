-- Replies saved before shortcodes were unique stay: in each clash (same company, and the same
-- author for personal replies, in any case) the oldest keeps its shortcode and every later one
-- gets '-' and its id appended. Repeated until nothing clashes, since an appended name may be
-- taken already. Personal replies of a deleted author (no user_id) never clash.
DO $$
DECLARE
  renamed integer;
BEGIN
  LOOP
    WITH ranked AS (
      SELECT id, row_number() OVER (
        PARTITION BY company_id, geral, CASE WHEN geral THEN NULL ELSE user_id END, lower(shortcode)
        ORDER BY id
      ) AS position
      FROM quick_messages
      WHERE geral OR user_id IS NOT NULL
    )
    UPDATE quick_messages
    SET shortcode = quick_messages.shortcode || '-' || quick_messages.id
    FROM ranked
    WHERE ranked.id = quick_messages.id AND ranked.position > 1;
    GET DIAGNOSTICS renamed = ROW_COUNT;
    EXIT WHEN renamed = 0;
  END LOOP;
END $$;--> statement-breakpoint
CREATE UNIQUE INDEX "quick_messages_shared_shortcode_key" ON "quick_messages" USING btree ("company_id",lower("shortcode")) WHERE "quick_messages"."geral";--> statement-breakpoint
CREATE UNIQUE INDEX "quick_messages_personal_shortcode_key" ON "quick_messages" USING btree ("company_id","user_id",lower("shortcode")) WHERE not "quick_messages"."geral";
