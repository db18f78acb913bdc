import mysql from 'mysql2/promise';
import pg from 'pg';

/**
 * The Whaticket database being moved, read through its own driver (pg for PostgreSQL, mysql2 for
 * MySQL and MariaDB) on a session that is read-only, so nothing here can write to it. Every query
 * the importer runs on the source is in this file.
 */

export type SourceDialect = 'postgres' | 'mysql';
export type SourceRow = Record<string, unknown>;

/** A problem the person running the import can act on, said in one line. */
export class ImportError extends Error {}

/** The last migration of Whaticket SaaS 6.0.0, as sequelize-cli records it (compiled to .js). */
export const LAST_MIGRATION_6_0_0 = '20240914200100-whatsapps-change-unique-name';

function dialectOf(url: string): SourceDialect {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    throw new ImportError('The --from address is not a URL: give postgres://… or mysql://….');
  }
  if (protocol === 'postgres:' || protocol === 'postgresql:') return 'postgres';
  if (protocol === 'mysql:' || protocol === 'mariadb:') return 'mysql';
  throw new ImportError(
    `The --from address must start with postgres:// or mysql://, not ${protocol}//.`,
  );
}

/** The driver's error as the one line that tells what to do. */
export function explainSourceError(error: unknown, url: string): Error {
  if (error instanceof ImportError) return error;
  const e = error as { code?: string | number; errno?: number; message?: string };
  const where = (() => {
    try {
      const parsed = new URL(url);
      return `${parsed.hostname}:${parsed.port || '(default port)'}${parsed.pathname}`;
    } catch {
      return url;
    }
  })();
  // MySQL's error numbers, which MariaDB keeps when its code names differ.
  const byNumber: Record<number, string> = {
    1045: 'ER_ACCESS_DENIED_ERROR',
    1698: 'ER_ACCESS_DENIED_ERROR',
    1049: 'ER_BAD_DB_ERROR',
    1044: 'ER_DBACCESS_DENIED_ERROR',
    1142: 'ER_TABLEACCESS_DENIED_ERROR',
    1143: 'ER_COLUMNACCESS_DENIED_ERROR',
  };
  switch ((e.errno && byNumber[e.errno]) || e.code) {
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
      return new ImportError(`Cannot reach the source database at ${where} (${e.code}).`);
    case '28P01':
    case '28000':
    case 'ER_ACCESS_DENIED_ERROR':
      return new ImportError(`The source database at ${where} refused the user name or password.`);
    case '3D000':
    case 'ER_BAD_DB_ERROR':
      return new ImportError(`The source database ${where} does not exist.`);
    case '42501':
    case 'ER_TABLEACCESS_DENIED_ERROR':
    case 'ER_DBACCESS_DENIED_ERROR':
    case 'ER_COLUMNACCESS_DENIED_ERROR':
      return new ImportError(
        `The source user may not read everything: grant it SELECT on the Whaticket database (${e.message}).`,
      );
    default:
      return error instanceof Error ? error : new Error(String(error));
  }
}

interface Driver {
  query(sql: string, params?: unknown[]): Promise<SourceRow[]>;
  close(): Promise<void>;
}

async function connect(dialect: SourceDialect, url: string): Promise<Driver> {
  if (dialect === 'postgres') {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('set session characteristics as transaction read only');
    return {
      query: async (sql, params) => (await client.query(sql, params)).rows,
      close: () => client.end(),
    };
  }
  // Dates come as the text MySQL holds (São Paulo wall time): values.ts reads them, zero dates too.
  const connection = await mysql.createConnection({
    uri: url,
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
  });
  await connection.query('set session transaction read only');
  return {
    query: async (sql, params) => {
      const [rows] = await connection.query(sql, params);
      return rows as SourceRow[];
    },
    close: () => connection.end(),
  };
}

export class WhaticketSource {
  readonly #columns = new Map<string, Set<string>>();

  private constructor(
    readonly dialect: SourceDialect,
    readonly url: string,
    private readonly driver: Driver,
  ) {}

  static async open(url: string): Promise<WhaticketSource> {
    const dialect = dialectOf(url);
    try {
      return new WhaticketSource(dialect, url, await connect(dialect, url));
    } catch (error) {
      throw explainSourceError(error, url);
    }
  }

  /** What names the source in the id map: its server and database, never its credentials. */
  get label(): string {
    const parsed = new URL(this.url);
    return `${this.dialect}://${parsed.hostname}:${parsed.port}${parsed.pathname}`;
  }

  q(name: string): string {
    return this.dialect === 'postgres' ? `"${name}"` : `\`${name}\``;
  }

  #mark(n: number): string {
    return this.dialect === 'postgres' ? `$${n}` : '?';
  }

  async #query(sql: string, params: unknown[] = []): Promise<SourceRow[]> {
    try {
      return await this.driver.query(sql, params);
    } catch (error) {
      throw explainSourceError(error, this.url);
    }
  }

  /** Refuses anything but a Whaticket 6.0.0 database; answers the later migrations of a fork. */
  async verify(): Promise<{ later: string[] }> {
    let meta: SourceRow[];
    try {
      meta = await this.driver.query(
        `select ${this.q('name')} as name from ${this.q('SequelizeMeta')}`,
      );
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === '42P01' || code === 'ER_NO_SUCH_TABLE') {
        throw new ImportError(
          'This database is not a Whaticket database: it has no SequelizeMeta migration table.',
        );
      }
      throw explainSourceError(error, this.url);
    }
    const tables = await this.tables();
    const names = meta.map((row) => String(row.name).replace(/\.(js|ts)$/, '')).sort();
    if (!names.includes(LAST_MIGRATION_6_0_0)) {
      throw new ImportError(
        `This database is not Whaticket 6.0.0: its last migration is ${names.at(-1) ?? 'none'}, 6.0.0's is ${LAST_MIGRATION_6_0_0}.`,
      );
    }
    for (const table of ['Companies', 'Users', 'Contacts', 'Tickets', 'Messages']) {
      if (!tables.has(table)) {
        throw new ImportError(`This Whaticket database has no ${table} table: it is not whole.`);
      }
    }
    return { later: names.filter((name) => name > LAST_MIGRATION_6_0_0) };
  }

  async tables(): Promise<Set<string>> {
    const rows =
      this.dialect === 'postgres'
        ? await this.#query(
            'select table_name as name from information_schema.tables where table_schema = current_schema()',
          )
        : await this.#query(
            'select table_name as name from information_schema.tables where table_schema = database()',
          );
    return new Set(rows.map((row) => String(row.name ?? row.NAME)));
  }

  /** The table's columns (cached): some databases lack columns the 6.0.0 model reads. */
  async columns(table: string): Promise<Set<string>> {
    const known = this.#columns.get(table);
    if (known) return known;
    const schema = this.dialect === 'postgres' ? 'current_schema()' : 'database()';
    const rows = await this.#query(
      `select column_name as name from information_schema.columns where table_schema = ${schema} and table_name = ${this.#mark(1)}`,
      [table],
    );
    const columns = new Set(rows.map((row) => String(row.name ?? row.NAME)));
    this.#columns.set(table, columns);
    return columns;
  }

  async count(table: string): Promise<number> {
    const [row] = await this.#query(`select count(*) as n from ${this.q(table)}`);
    return Number(row?.n ?? 0);
  }

  /**
   * Every row of `table` in key order, `size` at a time (keyset pagination on the primary key, so
   * each page is an index range and the read never holds a long transaction).
   */
  async *pages(
    table: string,
    key: string[],
    size: number,
    only: { columns?: string[]; notNull?: string } = {},
  ): AsyncGenerator<SourceRow[]> {
    const q = (name: string) => this.q(name);
    const order = key.map(q).join(', ');
    const columns = only.columns ? only.columns.map(q).join(', ') : '*';
    let last: unknown[] | undefined;
    for (;;) {
      const conditions = only.notNull ? [`${q(only.notNull)} is not null`] : [];
      if (last) {
        const marks = key.map((_, i) => this.#mark(i + 1));
        conditions.push(`(${order}) > (${marks.join(', ')})`);
      }
      const where = conditions.length ? `where ${conditions.join(' and ')}` : '';
      const rows = await this.#query(
        `select ${columns} from ${q(table)} ${where} order by ${order} limit ${Number(size)}`,
        last ?? [],
      );
      if (!rows.length) return;
      yield rows;
      if (rows.length < size) return;
      const end = rows.at(-1)!;
      last = key.map((column) => end[column]);
    }
  }

  /** The rows of `table` whose `column` is one of `values`. */
  async rowsWhereIn(table: string, column: string, values: unknown[]): Promise<SourceRow[]> {
    if (!values.length) return [];
    const marks = values.map((_, i) => this.#mark(i + 1)).join(', ');
    return this.#query(
      `select * from ${this.q(table)} where ${this.q(column)} in (${marks})`,
      values,
    );
  }

  close(): Promise<void> {
    return this.driver.close();
  }
}
