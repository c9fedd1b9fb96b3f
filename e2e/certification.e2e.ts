import { describe, expect, it } from 'vitest';
import { SHOTS, appUnderTest, phoneContext, pngFile, signIn, type E2eServer } from './support.js';

/** The operator's review API, as the demo app's server calls it. */
async function review(server: E2eServer, memberId: string, decision: Record<string, unknown>) {
  const base = `${server.url}/api/v1/apps/demo-appkey/certifications`;
  const auth = { authorization: 'Bearer demo-secret-key' };
  const queue = (await (await fetch(base, { headers: auth })).json()) as {
    content: Array<{ memberId: string; submittedAt: number; images: string[] }>;
  };
  const submission = queue.content.find((s) => s.memberId === memberId);
  expect(submission?.images).toHaveLength(2);
  const res = await fetch(`${base}/${memberId}/review`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ ...decision, submittedAt: submission?.submittedAt }),
  });
  expect(res.status).toBe(200);
}

describe('real-name certification end to end', () => {
  const app = appUnderTest();

  it('a member submits, is refused with a reason, submits again and is certified', async () => {
    const { context, page, dialogs } = await phoneContext(app.browser, 'en-US');
    const id = await signIn(page, app.server, '13600136003', 'en');
    const photo = pngFile(64, 40, (x) => (x < 32 ? [200, 60, 60] : [250, 250, 250]));

    const fill = async () => {
      await page.getByRole('textbox', { name: 'Real name' }).fill('Wang Xiaoming');
      await page.getByRole('textbox', { name: 'ID card number' }).fill('11010519491231002X');
      for (const side of ['Front', 'Back']) {
        const chooser = page.waitForEvent('filechooser');
        await page.getByRole('button', { name: side, exact: true }).click();
        await (await chooser).setFiles({ name: `${side}.png`, mimeType: 'image/png', buffer: photo });
        await page.getByRole('button', { name: side, exact: true }).locator('img').waitFor();
      }
    };

    await page.goto(`${app.server.url}/h5/#/member/sz`);
    await page.getByText('Real-name certification', { exact: true }).click();
    await page.waitForURL(/#\/member\/renzheng$/);
    await fill();
    await page.screenshot({ path: `${SHOTS}certification-form-en.png` });
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await page.getByText('Under review').waitFor();
    await page.getByText('1****************X').waitFor();
    await page.screenshot({ path: `${SHOTS}certification-pending-en.png` });

    await review(app.server, id, { pass: false, reason: 'The photo is blurred' });
    await page.reload();
    await page.getByText(/Certification failed: The photo is blurred/).waitFor();
    await fill();
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await page.getByText('Under review').waitFor();

    await review(app.server, id, { pass: true });
    await page.goto(`${app.server.url}/h5/#/pages/user/index`);
    await page.getByTestId('verified').waitFor();
    await page.screenshot({ path: `${SHOTS}certified-mine-en.png` });
    await page.goto(`${app.server.url}/h5/#/member/renzheng`);
    await page.getByText('Your real-name certification has passed').waitFor();
    expect(dialogs).toEqual([]);
    await context.close();
  });
});
