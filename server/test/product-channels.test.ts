import { describe, expect, it } from 'vitest';
import { operator, type ProductServer, productServer, signIn } from './product-support.js';

const channels = (p: ProductServer, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path = '', body?: unknown) =>
  operator(p, 'article-channels', method, path, body);

/** Adds channels named `names` (the operator's order), answering their ids by name. */
async function setUp(p: ProductServer, ...names: string[]): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const name of names) {
    const added = await channels(p, 'POST', '', { name });
    ids[name] = (added.content as { id: string }).id;
  }
  return ids;
}

const names = (answer: Record<string, unknown>) => {
  const { mine, more } = answer['ret'] as { mine: Array<{ name: string }>; more: Array<{ name: string }> };
  return { mine: mine.map((c) => c.name), more: more.map((c) => c.name) };
};

describe('product channels: the operator sets them up, article/typeid and member/typeid_set choose them', () => {
  it('lets the operator add, order, rename and remove channels, each checked', async () => {
    const p = await productServer();
    const tech = await channels(p, 'POST', '', { name: '  科技  ' });
    expect(tech).toEqual({
      status: 200,
      code: 200,
      content: { id: expect.any(String), name: '科技', position: 0, isDefault: true, createdAt: p.now() },
    });
    const techId = (tech.content as { id: string }).id;
    expect((await channels(p, 'POST', '', { name: 'Sport', isDefault: false })).content).toMatchObject({
      position: 1,
      isDefault: false,
    });
    p.advance(1000);
    expect((await channels(p, 'POST', '', { name: 'Travel', position: 0 })).content).toMatchObject({ position: 0 });
    const listed = async () => ((await channels(p, 'GET')).content as Array<{ name: string }>).map((c) => c.name);
    // Position first, then the oldest first.
    expect(await listed()).toEqual(['科技', 'Travel', 'Sport']);

    const refused = async (body: unknown, content: string) =>
      expect(await channels(p, 'POST', '', body)).toEqual({ status: 400, code: 400, content });
    await refused({ name: '' }, 'name must be 1 to 12 characters.');
    await refused({ name: '   ' }, 'name must be 1 to 12 characters.');
    await refused({ name: 'x'.repeat(13) }, 'name must be 1 to 12 characters.');
    await refused({ name: 'tab\there' }, 'name must be 1 to 12 characters.');
    await refused({ name: 7 }, 'name must be 1 to 12 characters.');
    await refused({}, 'name must be 1 to 12 characters.');
    await refused({ name: ' Sport ' }, 'a channel of that name exists.');
    await refused({ name: 'Food', position: -1 }, 'position must be an integer from 0 to 10000.');
    await refused({ name: 'Food', position: 1.5 }, 'position must be an integer from 0 to 10000.');
    await refused({ name: 'Food', position: 10_001 }, 'position must be an integer from 0 to 10000.');
    await refused({ name: 'Food', isDefault: 'yes' }, 'isDefault must be boolean.');
    await refused([], 'body must be an object.');
    expect(await listed()).toHaveLength(3);

    expect(await channels(p, 'PATCH', `/${techId}`, { name: 'Tech', position: 5 })).toMatchObject({
      status: 200,
      content: { id: techId, name: 'Tech', position: 5, isDefault: true },
    });
    expect(await listed()).toEqual(['Travel', 'Sport', 'Tech']);
    // Renaming to its own name is no clash; to another's is.
    expect((await channels(p, 'PATCH', `/${techId}`, { name: 'Tech' })).status).toBe(200);
    expect(await channels(p, 'PATCH', `/${techId}`, { name: 'Sport' })).toMatchObject({
      status: 400,
      content: 'a channel of that name exists.',
    });
    expect(await channels(p, 'PATCH', `/${techId}`, { isDefault: 1 })).toMatchObject({ status: 400 });
    expect(await channels(p, 'PATCH', '/nope', { name: 'Nope' })).toEqual({
      status: 404,
      code: 404,
      content: 'channel does not exist.',
    });
    expect(await channels(p, 'DELETE', `/${techId}`)).toMatchObject({ status: 200, content: { name: 'Tech' } });
    expect(await channels(p, 'DELETE', `/${techId}`)).toMatchObject({ status: 404 });
    expect(await listed()).toEqual(['Travel', 'Sport']);

    const wrong = await operator(p, 'article-channels', 'GET', '', undefined, 'not-the-secret');
    expect(wrong).toMatchObject({ status: 401, code: 401 });
    expect((await operator(p, 'article-channels', 'POST', '', { name: 'Hack' }, 'not-the-secret')).status).toBe(401);
  });

  it('keeps at most 50 channels, even added at once', async () => {
    const p = await productServer();
    const added = await Promise.all(
      Array.from({ length: 53 }, (_, i) => channels(p, 'POST', '', { name: `Channel ${i}` })),
    );
    expect(added.filter((a) => a.status === 200)).toHaveLength(50);
    expect(added.filter((a) => a.content === 'at most 50 channels.')).toHaveLength(3);
    // The same name sent at once is added once.
    const p2 = await productServer();
    const twins = await Promise.all([1, 2, 3].map(() => channels(p2, 'POST', '', { name: 'Twin' })));
    expect(twins.filter((a) => a.status === 200)).toHaveLength(1);
  });

  it('shows visitors and new members the default channels, and keeps each member’s choice in their order', async () => {
    const p = await productServer();
    const ids = await setUp(p, 'Tech', 'Travel', 'Food');
    await channels(p, 'PATCH', `/${ids['Food']}`, { isDefault: false });
    expect(await p.call('article/typeid', {})).toEqual({
      status: 200,
      ret: {
        mine: [
          { id: ids['Tech'], name: 'Tech' },
          { id: ids['Travel'], name: 'Travel' },
        ],
        more: [{ id: ids['Food'], name: 'Food' }],
      },
    });
    const alice = await signIn(p);
    expect(names(await p.call('article/typeid', { token: alice.token }))).toEqual({
      mine: ['Tech', 'Travel'],
      more: ['Food'],
    });

    const chosen = await p.call('member/typeid_set', { token: alice.token, ids: [ids['Food'], ids['Tech']] });
    expect(names(chosen)).toEqual({ mine: ['Food', 'Tech'], more: ['Travel'] });
    expect(names(await p.call('article/typeid', { token: alice.token }))).toEqual(names(chosen));
    // Another member, and visitors, still see the defaults.
    const bob = await signIn(p, '13900139000');
    expect(names(await p.call('article/typeid', { token: bob.token })).mine).toEqual(['Tech', 'Travel']);
    expect(names(await p.call('article/typeid', { token: 'expired' })).mine).toEqual(['Tech', 'Travel']);

    const refused = async (body: Record<string, unknown>, code: string, err: string) =>
      expect(await p.call('member/typeid_set', { token: alice.token, ...body })).toEqual({ status: 200, err, code });
    await refused({ ids: [] }, 'channel_last', 'at least one channel must remain');
    await refused({ ids: ['nope'] }, 'channel_missing', 'the channel does not exist');
    await refused({ ids: [ids['Tech'], ids['Tech']] }, 'bad_params', 'parameter error');
    await refused({ ids: [7] }, 'bad_params', 'parameter error');
    await refused({ ids: ids['Tech'] }, 'bad_params', 'parameter error');
    await refused({ ids: Array.from({ length: 51 }, (_, i) => `c${i}`) }, 'bad_params', 'parameter error');
    expect(await p.call('member/typeid_set', { token: 'expired', ids: [ids['Tech']] })).toMatchObject({
      code: 'token_invalid',
    });
    // Nothing refused changed the choice.
    expect(names(await p.call('article/typeid', { token: alice.token })).mine).toEqual(['Food', 'Tech']);

    // A channel added later is offered; one removed leaves the member's page; when none of theirs is left they get
    // the defaults again.
    await setUp(p, 'Music');
    expect(names(await p.call('article/typeid', { token: alice.token }))).toEqual({
      mine: ['Food', 'Tech'],
      more: ['Travel', 'Music'],
    });
    await channels(p, 'DELETE', `/${ids['Food']}`);
    await channels(p, 'DELETE', `/${ids['Tech']}`);
    expect(names(await p.call('article/typeid', { token: alice.token }))).toEqual({
      mine: ['Travel', 'Music'],
      more: [],
    });
  });

  it('files articles under a channel and lists a channel’s articles', async () => {
    const p = await productServer();
    const ids = await setUp(p, 'Tech', 'Travel');
    const alice = await signIn(p);
    const publish = (title: string, typeid?: unknown) =>
      p.call('member/article_add', { token: alice.token, title, content: 'Some text.', typeid });
    const lake = await publish('A day at the lake', ids['Travel']);
    expect(lake).toMatchObject({ ret: { channel: { id: ids['Travel'], name: 'Travel' } } });
    const chips = await publish('New chips this year', ids['Tech']);
    expect(await publish('No channel at all', '')).toMatchObject({ ret: { channel: null } });
    expect(await publish('In no channel either')).toMatchObject({ ret: { channel: null } });
    expect(await publish('Nowhere channel', 'nope')).toEqual({
      status: 200,
      err: 'the channel does not exist',
      code: 'channel_missing',
    });
    expect(await publish('Bad channel id', ['x'])).toMatchObject({ code: 'channel_missing' });

    const titles = async (body: Record<string, unknown>) =>
      ((await p.call('article/list', body)).ret as Array<{ title: string }>).map((a) => a.title);
    expect(await titles({ typeid: ids['Travel'] })).toEqual(['A day at the lake']);
    expect(await titles({ typeid: ids['Tech'] })).toEqual(['New chips this year']);
    expect(await titles({})).toHaveLength(4);
    expect(await p.call('article/list', { typeid: 'nope' })).toMatchObject({ code: 'channel_missing' });
    expect((await p.call('article/view', { id: chips.id })).ret).toMatchObject({
      channel: { id: ids['Tech'], name: 'Tech' },
    });

    // A removed channel's articles stay, in no channel.
    await channels(p, 'DELETE', `/${ids['Tech']}`);
    expect((await p.call('article/view', { id: chips.id })).ret).toMatchObject({ channel: null });
    expect(await titles({})).toHaveLength(4);
    expect(await p.call('article/list', { typeid: ids['Tech'] })).toMatchObject({ code: 'channel_missing' });
  });
});
