import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';

let t: TestServer;
let superToken: string;
let adminToken: string;
beforeAll(async () => {
  t = await startTestServer();
  superToken = (await t.login((await t.make.company({ super: true })).admin.email)).token;
  adminToken = (await t.login((await t.make.company()).admin.email)).token;
});
afterAll(() => t.stop());

describe('helps', () => {
  it('lets only the super user write, and every signed-in user read', async () => {
    const denied = await t.as(adminToken).post('/helps', { title: 'Intro', video: 'abc' });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect((await t.app.inject({ method: 'GET', url: '/helps/list' })).statusCode).toBe(401);

    const created = await t.as(superToken).post('/helps', {
      title: 'Primeiros passos',
      description: 'Como começar',
      video: 'dQw4w9WgXcQ',
    });
    expect(created.statusCode).toBe(201);
    const { id } = created.json();

    const listed = await t.as(adminToken).get('/helps/list');
    expect(listed.json()).toEqual([expect.objectContaining({ id, title: 'Primeiros passos' })]);
    const paged = await t.as(adminToken).get('/helps?searchParam=passos');
    expect(paged.json()).toMatchObject({ records: [{ id }], hasMore: false });

    const updated = await t.as(superToken).put(`/helps/${id}`, { title: 'Começando' });
    expect(updated.json().title).toBe('Começando');
    expect((await t.as(adminToken).put(`/helps/${id}`, { title: 'x' })).statusCode).toBe(403);
    expect((await t.as(superToken).delete(`/helps/${id}`)).statusCode).toBe(204);
    expect((await t.as(superToken).delete(`/helps/${id}`)).statusCode).toBe(404);
  });

  it('validates title and refuses a video that is not a code', async () => {
    const short = await t.as(superToken).post('/helps', { title: 'a' });
    expect(short.statusCode).toBe(400);
    expect(short.json().fields[0]).toMatchObject({ path: 'body.title', message: 'Too Short!' });
    const script = await t.as(superToken).post('/helps', {
      title: 'Video',
      video: '"><script>alert(1)</script>',
    });
    expect(script.statusCode).toBe(400);
  });
});
