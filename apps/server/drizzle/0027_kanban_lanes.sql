ALTER TABLE "tickets" ADD COLUMN "kanban_lane" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "tickets_company_lane_updated_idx" ON "tickets" USING btree ("company_id","kanban_lane","updated_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "tickets"."status" in ('open', 'pending');--> statement-breakpoint
-- hand-written: the triggers that keep tickets.kanban_lane, the ticket's kanban lane (see the
-- column in db/schema/tickets.ts): its kanban tag of the lowest id, 0 (OPEN_LANE) when it has
-- none ('Em aberto'). The board reads each lane as one walk of tickets_company_lane_updated_idx
-- instead of probing every ticket its tag ever had.
CREATE FUNCTION ticket_kanban_lanes_refresh(ticket_ids integer[]) RETURNS void LANGUAGE sql AS $$
  UPDATE tickets t SET kanban_lane = lane.tag_id
  FROM (SELECT DISTINCT unnest(ticket_ids) AS id) changed
  CROSS JOIN LATERAL (
    SELECT coalesce(min(tt.tag_id), 0) AS tag_id
    FROM ticket_tags tt
    JOIN tags tg ON tg.company_id = tt.company_id AND tg.id = tt.tag_id AND tg.kanban = 1
    WHERE tt.ticket_id = changed.id) lane
  WHERE t.id = changed.id AND t.kanban_lane <> lane.tag_id
$$;--> statement-breakpoint
-- Links of kanban tags added: their tickets may change lane.
CREATE FUNCTION ticket_tags_lanes_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ticket_kanban_lanes_refresh(array(
    SELECT a.ticket_id FROM added a
    JOIN tags tg ON tg.company_id = a.company_id AND tg.id = a.tag_id AND tg.kanban = 1));
  RETURN NULL;
END
$$;--> statement-breakpoint
-- Links removed: of kanban tags, or of tags deleted with them (no longer there to ask).
CREATE FUNCTION ticket_tags_lanes_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ticket_kanban_lanes_refresh(array(
    SELECT r.ticket_id FROM removed r
    WHERE NOT EXISTS (SELECT 1 FROM tags tg
      WHERE tg.company_id = r.company_id AND tg.id = r.tag_id AND tg.kanban <> 1)));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER ticket_tags_lanes_added AFTER INSERT ON ticket_tags REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION ticket_tags_lanes_added();--> statement-breakpoint
CREATE TRIGGER ticket_tags_lanes_removed AFTER DELETE ON ticket_tags REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION ticket_tags_lanes_removed();--> statement-breakpoint
-- A tag switched on or off as a lane moves the tickets that carry it.
CREATE FUNCTION tags_kanban_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ticket_kanban_lanes_refresh(array(
    SELECT tt.ticket_id FROM ticket_tags tt WHERE tt.tag_id = NEW.id));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER tags_kanban_changed AFTER UPDATE OF kanban ON tags
  FOR EACH ROW WHEN (OLD.kanban IS DISTINCT FROM NEW.kanban)
  EXECUTE FUNCTION tags_kanban_changed();--> statement-breakpoint
-- The lanes of the tickets tagged so far.
SELECT ticket_kanban_lanes_refresh(array(
  SELECT tt.ticket_id FROM ticket_tags tt
  JOIN tags tg ON tg.company_id = tt.company_id AND tg.id = tt.tag_id AND tg.kanban = 1));
