import { describe, expect, it } from 'vitest';
import { SHOTS, VIEWPORTS, appUnderTest, memberOf, phoneContext, signIn } from './support.js';

describe('sign-in by QR code end to end', () => {
  const app = appUnderTest();

  it('a desktop shows a code; the phone signed in opens it and confirms; the desktop is signed in', async () => {
    const phone = await phoneContext(app.browser, 'en-US');
    const id = await signIn(phone.page, app.server, '13500135021', 'en');
    const desktop = await phoneContext(app.browser, 'en-US', VIEWPORTS.desktop);
    await desktop.page.goto(`${app.server.url}/h5/#/user/login?redirect=${encodeURIComponent('/member/notify')}`);
    // A desktop's screen shows the phone form and the code side by side.
    await desktop.page.getByPlaceholder('Mobile number').waitFor();
    // The code shows once the user and privacy agreements are ticked, as a code login needs them.
    await desktop.page.getByText('Agree to the user agreement and privacy policy first').waitFor();
    await desktop.page.locator('.login-agree .adm-checkbox-icon').click();
    const code = desktop.page.getByRole('img', { name: 'QR code to sign in' });
    await code.waitFor();
    const link = (await code.getAttribute('data-link')) ?? '';
    expect(link).toMatch(new RegExp(`^${app.server.url}/h5/#/user/scan-login\\?ticket=[\\w-]{32}$`));
    await desktop.page.screenshot({ path: `${SHOTS}qr-login-en.png` });

    // The phone's camera opens the link in the app, where the member is signed in.
    await phone.page.goto(link);
    await phone.page.getByText('Sign in to your account on the device below?').waitFor();
    await phone.page.getByText('Chrome on Linux').waitFor();
    await phone.page.screenshot({ path: `${SHOTS}scan-login-en.png` });
    // Meanwhile the desktop shows who scanned it.
    await desktop.page.getByText('user5021 scanned the code. Confirm on the phone.').waitFor({ timeout: 10_000 });

    await phone.page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await phone.page.getByText('Signed in on Chrome on Linux').waitFor();
    await desktop.page.waitForURL(/#\/member\/notify/, { timeout: 10_000 });
    expect(await memberOf(desktop.page)).toMatchObject({ id });
    // Two sessions: the phone's is its own and still works.
    const [phoneUser, desktopUser] = await Promise.all([memberOf(phone.page), memberOf(desktop.page)]);
    expect(desktopUser.token).not.toBe(phoneUser.token);
    await phone.page.goto(`${app.server.url}/h5/#/member/sz`);
    await phone.page.getByText('Cancel account', { exact: true }).waitFor();
    expect([...phone.dialogs, ...desktop.dialogs]).toEqual([]);
    await Promise.all([phone.context.close(), desktop.context.close()]);
  });
});
