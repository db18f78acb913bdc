CREATE TABLE "ticket_day_stats" (
	"company_id" integer NOT NULL,
	"day" date NOT NULL,
	"user_id" integer DEFAULT 0 NOT NULL,
	"finished" integer DEFAULT 0 NOT NULL,
	"support_seconds" double precision DEFAULT 0 NOT NULL,
	"supported" integer DEFAULT 0 NOT NULL,
	"wait_seconds" double precision DEFAULT 0 NOT NULL,
	"waited" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "ticket_day_stats_company_id_day_user_id_pk" PRIMARY KEY("company_id","day","user_id")
);
--> statement-breakpoint
ALTER TABLE "ticket_day_stats" ADD CONSTRAINT "ticket_day_stats_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- hand-written: the triggers that keep ticket_day_stats (see the table in db/schema/tickets.ts).
-- The company's clock: its `timezone` setting, else the product's default.
CREATE FUNCTION company_time_zone(company integer) RETURNS text LANGUAGE sql STABLE AS $$
  select coalesce(
    (select value from settings where company_id = company and key = 'timezone'),
    'America/Sao_Paulo')
$$;--> statement-breakpoint
-- Adds a closed ticket's figures to its day (direction 1), or takes them away (-1). Taking away
-- only updates the row its adding made, so deleting a company (tickets go after the company
-- row) never inserts a row for it.
CREATE FUNCTION ticket_day_stats_move(t tickets, direction integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_day date := (t.finished_at at time zone company_time_zone(t.company_id))::date;
  v_user integer := coalesce(t.user_id, 0);
  v_support double precision := coalesce(extract(epoch from t.finished_at - t.accepted_at), 0);
  v_wait double precision := coalesce(extract(epoch from t.accepted_at - t.created_at), 0);
  v_accepted integer := (t.accepted_at is not null)::integer;
BEGIN
  IF direction > 0 THEN
    INSERT INTO ticket_day_stats AS s
      (company_id, day, user_id, finished, support_seconds, supported, wait_seconds, waited)
    VALUES (t.company_id, v_day, v_user, 1, v_support, v_accepted, v_wait, v_accepted)
    ON CONFLICT (company_id, day, user_id) DO UPDATE SET
      finished = s.finished + 1,
      support_seconds = s.support_seconds + excluded.support_seconds,
      supported = s.supported + excluded.supported,
      wait_seconds = s.wait_seconds + excluded.wait_seconds,
      waited = s.waited + excluded.waited;
  ELSE
    UPDATE ticket_day_stats AS s SET
      finished = s.finished - 1,
      support_seconds = s.support_seconds - v_support,
      supported = s.supported - v_accepted,
      wait_seconds = s.wait_seconds - v_wait,
      waited = s.waited - v_accepted
    WHERE s.company_id = t.company_id AND s.day = v_day AND s.user_id = v_user;
  END IF;
END
$$;--> statement-breakpoint
CREATE FUNCTION tickets_day_stats() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.finished_at IS NOT NULL THEN
    PERFORM ticket_day_stats_move(OLD, -1);
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.finished_at IS NOT NULL THEN
    PERFORM ticket_day_stats_move(NEW, 1);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER tickets_day_stats_written AFTER INSERT OR DELETE ON tickets
  FOR EACH ROW EXECUTE FUNCTION tickets_day_stats();--> statement-breakpoint
CREATE TRIGGER tickets_day_stats_changed AFTER UPDATE OF finished_at, accepted_at, created_at, user_id ON tickets
  FOR EACH ROW
  WHEN (OLD.finished_at IS DISTINCT FROM NEW.finished_at OR OLD.accepted_at IS DISTINCT FROM NEW.accepted_at
    OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.user_id IS DISTINCT FROM NEW.user_id)
  EXECUTE FUNCTION tickets_day_stats();--> statement-breakpoint
-- A company's days counted again, on its clock now.
CREATE FUNCTION ticket_day_stats_recount(company integer) RETURNS void LANGUAGE sql AS $$
  DELETE FROM ticket_day_stats WHERE company_id = company;
  INSERT INTO ticket_day_stats
    (company_id, day, user_id, finished, support_seconds, supported, wait_seconds, waited)
  SELECT company, (t.finished_at at time zone z.tz)::date, coalesce(t.user_id, 0), count(*),
    coalesce(sum(extract(epoch from t.finished_at - t.accepted_at)), 0), count(t.accepted_at),
    coalesce(sum(extract(epoch from t.accepted_at - t.created_at)), 0), count(t.accepted_at)
  FROM tickets t, (select company_time_zone(company) as tz) z
  WHERE t.company_id = company AND t.finished_at IS NOT NULL
  GROUP BY 2, 3;
$$;--> statement-breakpoint
CREATE FUNCTION settings_time_zone_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ticket_day_stats_recount(NEW.company_id);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER settings_time_zone_written AFTER INSERT ON settings
  FOR EACH ROW WHEN (NEW.key = 'timezone') EXECUTE FUNCTION settings_time_zone_changed();--> statement-breakpoint
CREATE TRIGGER settings_time_zone_changed AFTER UPDATE OF value ON settings
  FOR EACH ROW WHEN (NEW.key = 'timezone' AND OLD.value IS DISTINCT FROM NEW.value)
  EXECUTE FUNCTION settings_time_zone_changed();--> statement-breakpoint
-- The tickets closed so far.
INSERT INTO ticket_day_stats
  (company_id, day, user_id, finished, support_seconds, supported, wait_seconds, waited)
SELECT t.company_id, (t.finished_at at time zone company_time_zone(t.company_id))::date,
  coalesce(t.user_id, 0), count(*),
  coalesce(sum(extract(epoch from t.finished_at - t.accepted_at)), 0), count(t.accepted_at),
  coalesce(sum(extract(epoch from t.accepted_at - t.created_at)), 0), count(t.accepted_at)
FROM tickets t
WHERE t.finished_at IS NOT NULL
GROUP BY 1, 2, 3;
