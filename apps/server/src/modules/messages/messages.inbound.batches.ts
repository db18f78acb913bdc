import type { TenantDb } from '../../db/tenant';
import {
  type InboundRow,
  knownInbound,
  type StoredInboundRow,
  storeInbound,
} from './messages.inbound.repository';

/** Rows one statement stores at most. */
const MAX_ROWS = 200;
/**
 * Store statements of one company under way at once. One: what arrives meanwhile waits for it
 * and goes in the next, so rows are stored in as few statements as the load allows (a second
 * one beside it cost PostgreSQL a quarter more per message in the messaging bench).
 */
const MAX_RUNNING = 1;
/** Tries of a row whose ticket a concurrent statement created meanwhile. */
const TRIES = 5;

interface Waiting {
  row: InboundRow;
  /** The numbers and the message id it writes: no other row with one of them may run beside it. */
  keys: string[];
  tries: number;
  resolve(stored: StoredInboundRow | undefined): void;
  reject(error: unknown): void;
}

interface CompanyQueue {
  db: TenantDb;
  waiting: Waiting[];
  /** Keys of the rows being stored. */
  busy: Set<string>;
  running: number;
  scheduled: boolean;
}

const keysOf = (row: InboundRow) => [
  `number:${row.chatNumber}`,
  ...(row.isGroup ? [`number:${row.senderNumber}`] : []),
  `message:${row.connectionId}:${row.providerMessageId}`,
];

/**
 * Inbound messages of one company that arrive together are stored by one statement, in one
 * commit: a message waits for the turn of the event loop it arrived in (more messages may land
 * meanwhile), or, while a company already has MAX_RUNNING statements under way, until one of
 * them is done; so a lone message waits for nothing, and under load each statement takes what
 * came while the last ones ran. Each caller is answered once its row is committed.
 *
 * Rows of the same person (a chat's number, a group's sender, a message id) never go together
 * nor beside each other: the later one waits for the next statement after the earlier one's,
 * so each chat keeps its order and no statement writes a row twice. A statement that fails
 * stores its rows one by one, so one message the database refuses fails alone; a row neither
 * stored nor known (its ticket was created by a concurrent statement) is tried again.
 */
export class InboundBatches {
  readonly #companies = new Map<number, CompanyQueue>();

  /** The row's stored answer once committed; undefined when its message was already stored. */
  store(db: TenantDb, row: InboundRow): Promise<StoredInboundRow | undefined> {
    let queue = this.#companies.get(db.companyId);
    if (!queue) {
      queue = { db, waiting: [], busy: new Set(), running: 0, scheduled: false };
      this.#companies.set(db.companyId, queue);
    }
    const company = queue;
    return new Promise((resolve, reject) => {
      company.waiting.push({ row, keys: keysOf(row), tries: 0, resolve, reject });
      this.#schedule(company);
    });
  }

  #schedule(queue: CompanyQueue) {
    if (queue.scheduled || queue.running >= MAX_RUNNING || queue.waiting.length === 0) return;
    queue.scheduled = true;
    setImmediate(() => {
      queue.scheduled = false;
      this.#start(queue);
    });
  }

  /** Takes the waiting rows that may go now, in arrival order, into one statement. */
  #start(queue: CompanyQueue) {
    if (queue.running >= MAX_RUNNING) return;
    const batch: Waiting[] = [];
    const later: Waiting[] = [];
    const taken = new Set(queue.busy);
    for (const entry of queue.waiting) {
      if (batch.length < MAX_ROWS && entry.keys.every((key) => !taken.has(key))) batch.push(entry);
      else later.push(entry);
      // A row kept back keeps back the later rows of the same person too.
      for (const key of entry.keys) taken.add(key);
    }
    if (batch.length === 0) return;
    queue.waiting = later;
    for (const entry of batch) for (const key of entry.keys) queue.busy.add(key);
    queue.running += 1;
    void this.#run(queue.db, batch).finally(() => {
      for (const entry of batch) for (const key of entry.keys) queue.busy.delete(key);
      queue.running -= 1;
      if (queue.running === 0 && queue.waiting.length === 0) {
        this.#companies.delete(queue.db.companyId);
      } else this.#schedule(queue);
    });
    this.#schedule(queue);
  }

  async #run(db: TenantDb, batch: Waiting[]): Promise<void> {
    let answers: StoredInboundRow[];
    try {
      answers = await storeInbound(
        db,
        batch.map((entry) => entry.row),
      );
    } catch (error) {
      if (batch.length === 1) batch[0]!.reject(error);
      else await Promise.all(batch.map((entry) => this.#run(db, [entry])));
      return;
    }
    const byPlace = new Map(answers.map((answer) => [answer.n, answer]));
    const missing = batch.filter((entry, index) => {
      const answer = byPlace.get(index + 1);
      if (answer) entry.resolve(answer);
      return !answer;
    });
    if (missing.length === 0) return;
    let known: Set<string>;
    try {
      known = await knownInbound(
        db,
        missing.map((entry) => entry.row),
      );
    } catch (error) {
      for (const entry of missing) entry.reject(error);
      return;
    }
    const again: Waiting[] = [];
    for (const entry of missing) {
      if (known.has(`${entry.row.connectionId}:${entry.row.providerMessageId}`)) {
        entry.resolve(undefined);
      } else if (++entry.tries >= TRIES) {
        entry.reject(new Error('inbound message could not be stored'));
      } else again.push(entry);
    }
    if (again.length > 0) await this.#run(db, again);
  }
}
