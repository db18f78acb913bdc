declare const opaque: unique symbol;
/** The database as request contexts carry it: opaque, usable only through `tenantDb`. */
export type DbHandle = { readonly [opaque]: 'DbHandle' };
