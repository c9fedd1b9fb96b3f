import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SHOTS, VIEWPORTS, appUnderTest, phoneContext, signIn } from './support.js';

const CUSTOMER = '13600136001';
const AGENT_1 = '13700137001';
const AGENT_2 = '13700137002';
/** Members are named after the last four digits of their phone. */
const AGENT_1_NAME = 'user7001';
const AGENT_2_NAME = 'user7002';
const CUSTOMER_NAME = 'user6001';

/** The session status line of the chat on `page`, once it reads `text`. */
async function statusReads(page: Page, text: string): Promise<void> {
  await page.getByTestId('cs-status').filter({ hasText: text }).waitFor();
}

/** Opens the console from the user tab and goes online. */
async function goOnline(page: Page, url: string, entry: string, online: string): Promise<void> {
  await page.goto(`${url}/h5/#/pages/user/index`);
  await page.getByText(entry, { exact: true }).click();
  await page.waitForURL(/#\/im\/console/);
  const toggle = page.getByRole('switch', { name: online });
  await page.locator('.adm-switch:not(.adm-switch-disabled)').waitFor();
  await toggle.click();
  await page.locator('.adm-switch-checked').waitFor();
}

describe('customer service end to end', () => {
  const app = appUnderTest({
    cs: { teamId: 'service', teamName: 'Parley Support', agents: [AGENT_1, AGENT_2] },
  });

  it('a customer and two agents: pending -> accept -> chat -> transfer -> end', async () => {
    const customer = await phoneContext(app.browser, 'en-US');
    const agent1 = await phoneContext(app.browser, 'en-US');
    const agent2 = await phoneContext(app.browser, 'zh-CN', VIEWPORTS.desktop);
    await signIn(customer.page, app.server, CUSTOMER, 'en');
    await signIn(agent1.page, app.server, AGENT_1, 'en');
    await signIn(agent2.page, app.server, AGENT_2, 'zh-CN');

    // The customer has no console entry; both agents go online from theirs.
    await customer.page.goto(`${app.server.url}/h5/#/pages/user/index`);
    await customer.page.getByText('Contact customer service').waitFor();
    expect(await customer.page.getByText('Service console').count()).toBe(0);
    await goOnline(agent1.page, app.server.url, 'Service console', 'Online');
    await goOnline(agent2.page, app.server.url, '客服工作台', '在线接待');

    // The customer opens the kefu entry and writes: waiting for an agent.
    await customer.page.getByText('Contact customer service').click();
    await customer.page.waitForURL(/#\/im\/view\?team=service/);
    await customer.page.locator('.app-navbar').getByText('Parley Support').waitFor();
    await statusReads(customer.page, 'Send a message and an agent will reply soon');
    await customer.page.getByPlaceholder('Say something…').fill('I need help with my order');
    await customer.page.getByRole('button', { name: 'Send' }).click();
    await statusReads(customer.page, 'Waiting for an agent…');

    // Both agents see the customer waiting, live.
    const pending1 = agent1.page.getByTestId('cs-pending').filter({ hasText: 'I need help with my order' });
    await pending1.waitFor();
    await agent2.page.getByTestId('cs-pending').filter({ hasText: 'I need help with my order' }).waitFor();
    await agent1.page.screenshot({ path: `${SHOTS}cs-console-pending-mobile.png` });
    await agent2.page.screenshot({ path: `${SHOTS}cs-console-pending-desktop.png` });

    // Agent 1 accepts: their chat opens (a screen of its own on a phone), the customer leaves agent 2's list.
    await pending1.getByRole('button', { name: 'Accept' }).click();
    await statusReads(agent1.page, 'You are serving this customer');
    expect(await agent1.page.locator('.cs-side').isVisible()).toBe(false);
    await expect.poll(() => agent2.page.getByTestId('cs-pending').count()).toBe(0);
    await statusReads(customer.page, `${AGENT_1_NAME} is serving you`);
    await customer.page
      .getByTestId('cs-notice')
      .filter({ hasText: `${AGENT_1_NAME} accepted the session` })
      .waitFor();

    // They chat both ways.
    await agent1.page.getByPlaceholder('Say something…').fill('Hello, how can I help?');
    await agent1.page.getByRole('button', { name: 'Send' }).click();
    await customer.page.locator('.bubble').filter({ hasText: 'Hello, how can I help?' }).waitFor();
    await customer.page.getByPlaceholder('Say something…').fill('Order 42 has not arrived');
    await customer.page.getByRole('button', { name: 'Send' }).click();
    await agent1.page.locator('.bubble').filter({ hasText: 'Order 42 has not arrived' }).waitFor();
    await customer.page.screenshot({ path: `${SHOTS}cs-customer-served.png` });
    await agent1.page.screenshot({ path: `${SHOTS}cs-console-chat-mobile.png` });

    // Agent 1 hands the customer to agent 2, the only other agent online.
    await agent1.page.getByRole('button', { name: 'Transfer' }).click();
    await agent1.page.locator('.adm-action-sheet-button-item').filter({ hasText: AGENT_2_NAME }).click();
    await statusReads(agent1.page, `Served by ${AGENT_2_NAME}`);
    expect(await agent1.page.getByPlaceholder('Say something…').count()).toBe(0);
    await statusReads(customer.page, `${AGENT_2_NAME} is serving you`);
    await customer.page
      .getByTestId('cs-notice')
      .filter({ hasText: `Handed over to ${AGENT_2_NAME}` })
      .waitFor();
    // Back on agent 1's list the customer shows as ended for them.
    await agent1.page.getByRole('button', { name: /Customers/ }).click();
    await agent1.page.getByTestId('cs-customer').filter({ hasText: 'Ended' }).waitFor();
    expect(await agent1.page.locator('.cs-main').isVisible()).toBe(false);

    // Agent 2 (desktop: list and chat side by side) finds the customer among theirs, with the whole conversation.
    const mine2 = agent2.page.getByTestId('cs-customer');
    await mine2.first().waitFor();
    await mine2.first().click();
    await statusReads(agent2.page, '由你接待中');
    expect(await agent2.page.locator('.cs-side').isVisible()).toBe(true);
    await agent2.page.locator('.bubble').filter({ hasText: 'Order 42 has not arrived' }).waitFor();
    await agent2.page.getByPlaceholder('说点什么…').fill('我来帮您查一下');
    await agent2.page.getByRole('button', { name: '发送' }).click();
    await customer.page.locator('.bubble').filter({ hasText: '我来帮您查一下' }).waitFor();
    await agent2.page.screenshot({ path: `${SHOTS}cs-console-chat-desktop.png` });

    // Agent 2 ends the session.
    await agent2.page.locator('.cs-actions').getByRole('button', { name: '结束' }).click();
    await agent2.page.locator('.adm-dialog').getByRole('button', { name: '结束' }).click();
    await statusReads(agent2.page, '会话已结束');
    await statusReads(customer.page, 'The session has ended');
    await customer.page.getByTestId('cs-notice').filter({ hasText: 'The session has ended' }).waitFor();
    await customer.page.screenshot({ path: `${SHOTS}cs-customer-ended.png` });
    await agent2.page.screenshot({ path: `${SHOTS}cs-console-ended-desktop.png` });

    // The conversation list knows customer service: the customer's row opens their chat with the team, the
    // agent's row opens the console on that customer.
    await customer.page.goto(`${app.server.url}/h5/#/im/index`);
    const own = customer.page.getByTestId('conversation').filter({ hasText: 'Parley Support' });
    expect(await own.innerText()).toContain('The session has ended');
    await own.click();
    await customer.page.waitForURL(/#\/im\/view\?team=service$/);
    await statusReads(customer.page, 'The session has ended');
    await agent2.page.goto(`${app.server.url}/h5/#/im/index`);
    const row = agent2.page.getByTestId('conversation').filter({ hasText: CUSTOMER_NAME });
    expect(await row.innerText()).toContain('会话已结束');
    await row.click();
    await agent2.page.waitForURL(/#\/im\/console\?team=service&customer=/);
    await statusReads(agent2.page, '会话已结束');

    expect([...customer.dialogs, ...agent1.dialogs, ...agent2.dialogs]).toEqual([]);
    await customer.context.close();
    await agent1.context.close();
    await agent2.context.close();
  });
});
