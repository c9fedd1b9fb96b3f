import { describe, expect, it } from 'vitest';
import { SHOTS, appUnderTest, memberOf, phoneContext, productApi, signIn } from './support.js';

describe('not interested end to end', () => {
  const app = appUnderTest();

  it('a member hides another’s article from the front page; it stays gone, and stays on its author’s page', async () => {
    const alice = await phoneContext(app.browser, 'en-US');
    const aliceId = await signIn(alice.page, app.server, '13500135041', 'en');
    const { token } = await memberOf(alice.page);
    for (const title of ['Walks by the lake', 'Cheap watches here']) {
      expect((await productApi(app.server, 'member/article_add', { token, title, content: 'Words.' })).id).toEqual(
        expect.any(String),
      );
    }

    const bob = await phoneContext(app.browser, 'en-US');
    await signIn(bob.page, app.server, '13500135042', 'en');
    const line = bob.page.getByTestId('article').filter({ hasText: 'Cheap watches here' });
    await line.waitFor();
    await line.getByRole('button', { name: 'Not interested' }).click();
    await bob.page.getByText("Hidden: you won't see it in your feeds").waitFor();
    await bob.page.screenshot({ path: `${SHOTS}not-interested-en.png` });
    // Still on the front page: hiding did not open the article.
    expect(bob.page.url()).toMatch(/#\/pages\/article\/index/);

    await bob.page.reload();
    await bob.page.getByText('Walks by the lake').waitFor();
    expect(await bob.page.getByText('Cheap watches here').count()).toBe(0);
    await bob.page.goto(`${app.server.url}/h5/#/user/home?id=${aliceId}`);
    await bob.page.getByText('Cheap watches here').waitFor();
    expect([...alice.dialogs, ...bob.dialogs]).toEqual([]);
    await Promise.all([alice.context.close(), bob.context.close()]);
  });
});
