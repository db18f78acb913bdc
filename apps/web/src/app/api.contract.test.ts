import { tagsContract } from '@atendi/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubFetch } from '../test/fetch';
import { api, ContractMismatchError } from './api';

afterEach(() => vi.unstubAllGlobals());

const tag = {
  id: 7,
  name: 'Urgente',
  color: '#ff0000',
  kanban: 0,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
};

/**
 * Never run: tsc (npm run typecheck) compiles these calls against the contracts, and each
 * `@ts-expect-error` fails the build once the call it marks stops being an error.
 */
export function callsTheContractsRefuse() {
  // @ts-expect-error a path parameter is missing
  void api.call(tagsContract.update, { body: { name: 'x' } });
  // @ts-expect-error a path parameter under another name
  void api.call(tagsContract.update, { params: { tagId: 1 }, body: { name: 'x' } });
  // @ts-expect-error a field of the wrong type
  void api.call(tagsContract.create, { body: { name: 42 } });
  // @ts-expect-error a required field missing
  void api.call(tagsContract.create, { body: { color: '#fff' } });
  // @ts-expect-error a field the body does not have
  void api.call(tagsContract.create, { body: { name: 'x', colour: '#fff' } });
  // @ts-expect-error a body where the route takes none
  void api.call(tagsContract.get, { params: { id: 1 }, body: { name: 'x' } });
  // @ts-expect-error a query key the route does not read
  void api.call(tagsContract.list, { query: { search: 'x' } });
  // @ts-expect-error the answer has no such field
  void api.call(tagsContract.get, { params: { id: 1 } }).then((answer) => answer.title);
}

describe('calls through a route contract', () => {
  it('fills the path, sends the body and answers what the server sent', async () => {
    const calls = stubFetch(() => json(200, tag));

    const answer = await api.call(tagsContract.update, {
      params: { id: 7 },
      body: { name: 'Urgente' },
    });

    expect(answer).toEqual(tag);
    expect(calls.map((call) => `${call.method} ${call.url.pathname}`)).toEqual(['PUT /tags/7']);
    expect(calls[0]?.body).toEqual({ name: 'Urgente' });
  });

  it('in development refuses an answer that does not match the contract', async () => {
    stubFetch(() => json(200, { ...tag, name: undefined, color: 5 }));

    await expect(api.call(tagsContract.get, { params: { id: 7 } })).rejects.toBeInstanceOf(
      ContractMismatchError,
    );
  });
});
