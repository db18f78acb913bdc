import type { Pool, PoolClient, QueryConfig } from 'pg';

/** One statement the app sent: its name when it is a named (prepared) one. */
export interface Statement {
  name?: string;
  text: string;
  values: unknown[];
}

type Query = (config: string | QueryConfig, values?: unknown[]) => Promise<unknown>;

function recorder(seen: Statement[], original: Query): Query {
  return function (this: unknown, config, values) {
    const text = typeof config === 'string' ? config : config.text;
    seen.push({
      ...(typeof config === 'object' && config.name ? { name: config.name } : {}),
      text,
      values: values ?? (typeof config === 'string' ? [] : config.values) ?? [],
    });
    return original.call(this, config, values);
  } as Query;
}

/**
 * Every statement the app sends through `pool` while `work` runs, each a round trip: the pool's
 * own queries, and every statement of the clients checked out of it meanwhile (a transaction's
 * BEGIN and COMMIT count). The job engine's polling is bound to the pool's own `query` and is
 * not seen; nor is the pool's `query` taking a client for itself (that is one statement, seen
 * once).
 */
export async function statementsOf(
  pool: Pool,
  work: (seen: readonly Statement[]) => Promise<unknown>,
): Promise<Statement[]> {
  const seen: Statement[] = [];
  const patched = pool as unknown as { query: Query; connect: Pool['connect'] };
  const query = patched.query;
  const connect = patched.connect;
  const clients: { client: PoolClient; own: boolean }[] = [];
  patched.query = recorder(seen, query);
  patched.connect = function (this: Pool, ...args: unknown[]) {
    // The callback form is the pool's `query` taking a client: counted there already.
    if (args.length > 0) return (connect as (...a: unknown[]) => unknown).apply(this, args);
    return (connect as () => Promise<PoolClient>).call(this).then((client) => {
      const patchedClient = client as unknown as { query: Query };
      clients.push({ client, own: Object.hasOwn(client, 'query') });
      patchedClient.query = recorder(seen, patchedClient.query);
      return client;
    });
  } as Pool['connect'];
  try {
    await work(seen);
  } finally {
    patched.query = query;
    patched.connect = connect;
    for (const { client, own } of clients) {
      if (!own) delete (client as unknown as { query?: Query }).query;
    }
  }
  return seen;
}

/** Resolves once `seen` has not grown for `quietMs`: the work that follows an answer is done. */
export async function quiet(seen: readonly unknown[], quietMs = 300, limitMs = 10_000) {
  const until = Date.now() + limitMs;
  let count = -1;
  while (count !== seen.length && Date.now() < until) {
    count = seen.length;
    await new Promise((resolve) => setTimeout(resolve, quietMs));
  }
}
