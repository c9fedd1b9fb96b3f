import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIMITS, MESSAGES } from '../src/protocol/index.js';
import { ADDRESS_LIMITS } from '../server/src/members/addresses.js';
import { BLOCK_LIMITS } from '../server/src/members/blocks.js';
import { CERTIFICATION_LIMITS } from '../server/src/members/certifications.js';
import { NOTICE_LIMITS } from '../server/src/members/notices.js';
import { SIGN_IN_RULES, TASK_LIMITS } from '../server/src/members/tasks.js';
import { SHOP_LIMITS } from '../server/src/shop/shops.js';
import { PRODUCT_LIMITS } from '../server/src/shop/products.js';
import { ORDER_LIMITS } from '../server/src/shop/orders.js';
import { REVIEW_LIMITS } from '../server/src/shop/reviews.js';
import { SERVICE_GUARANTEES } from '../server/src/shop/guarantees.js';
import { CLAIM_LIMITS } from '../server/src/shop/claims.js';
import { ANNOUNCEMENT_LIMITS } from '../server/src/shop/announcements.js';
import { WALLET_LIMITS } from '../server/src/members/wallet.js';
import { WITHDRAWAL_LIMITS } from '../server/src/members/withdrawals.js';
import { SHOP_WITHDRAWAL_LIMITS } from '../server/src/shop/withdrawals.js';
import { INVITATION_LIMITS, INVITATION_RULES } from '../server/src/members/invitations.js';
import { ARTICLE_LIMITS } from '../server/src/content/articles.js';
import { CHANNEL_LIMITS } from '../server/src/content/channels.js';
import { CIRCLE_LIMITS } from '../server/src/content/circle.js';
import { TOPIC_LIMITS } from '../server/src/content/topics.js';
import { REACTION_LIMITS } from '../server/src/content/reactions.js';
import { REPORT_LIMITS } from '../server/src/content/reports.js';
import { FOLLOW_LIMITS } from '../server/src/members/follows.js';
import { FEEDBACK_LIMITS } from '../server/src/members/feedback.js';
import { MEMBER_LIMITS } from '../server/src/members/service.js';

const root = join(import.meta.dirname, '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
/** A number as the docs write it: thousands apart by a space. */
const thousands = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
const docs = readdirSync(join(root, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`);

/** Rule ids the docs state: `**IM-3**` at the start of a rule. */
function definedRules(): Set<string> {
  const defined = new Set<string>();
  for (const path of docs) {
    for (const match of read(path).matchAll(/\*\*([A-Z]+-\d+)\*\*/g)) defined.add(match[1] as string);
  }
  return defined;
}

describe('docs', () => {
  it('cite only rules that the docs state', () => {
    const defined = definedRules();
    const prefixes = new Set([...defined].map((id) => id.split('-')[0]));
    const missing: string[] = [];
    for (const path of ['README.md', 'CHANGELOG.md', ...docs]) {
      for (const match of read(path).matchAll(/\b([A-Z]+)-(\d+)\b/g)) {
        const id = `${match[1]}-${match[2]}`;
        // Ranges like `IM-1..IM-26` cite both ends; other words with a dash and digits (UTF-8, ISO-8601) are not rules.
        if (prefixes.has(match[1]) && !defined.has(id)) missing.push(`${path}: ${id}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('limits.md gives the bounds and messages the code enforces', () => {
    const limits = read('docs/limits.md');
    for (const value of [
      LIMITS.userIdMaxLength,
      LIMITS.userDataMaxBytes,
      LIMITS.textMaxLength,
      LIMITS.messageMaxBytes,
      LIMITS.fileMaxBytes,
      LIMITS.historyMaxLimit,
      LIMITS.batchMaxMessages,
      LIMITS.conversationListMax,
      LIMITS.conversationCacheMessages,
      LIMITS.dedupeWindow,
      LIMITS.idArrayMax,
      LIMITS.userGroupsMax,
      LIMITS.presenceSubscriptionsMax,
      LIMITS.presenceMembersMax,
      LIMITS.publishMessageMaxLength,
      LIMITS.notificationTitleMaxLength,
      LIMITS.notificationBodyMaxLength,
      LIMITS.maxHosts,
      LIMITS.userEventNameMaxLength,
      LIMITS.userEventDataMaxBytes,
    ]) {
      expect(limits, String(value)).toContain(thousands(value));
    }
    for (const message of [
      MESSAGES.tooFrequent,
      MESSAGES.tooManyConnections,
      MESSAGES.idTooLong,
      MESSAGES.dataTooLong,
      MESSAGES.tooManyHosts,
      MESSAGES.textTooLong,
      MESSAGES.messageTooLong,
      MESSAGES.tooManyMessages,
      MESSAGES.userGroupsTooMany,
      MESSAGES.userPresenceTooMany,
      MESSAGES.sessionChannelsTooMany,
      MESSAGES.sessionWatchesTooMany,
      MESSAGES.publishMessageTooLong,
      MESSAGES.userEventNameTooLong,
      MESSAGES.userEventDataTooLarge,
      MESSAGES.channelTooLong,
      MESSAGES.membersLimitInvalid,
    ]) {
      expect(limits).toContain(`\`${message}\``);
    }
  });

  it("limits.md gives the product app's profile, feedback and account bounds", () => {
    const section =
      read('docs/limits.md').split("## The product app's profile, feedback and account")[1]?.split('\n## ')[0] ?? '';
    expect(section).toContain(`1 to ${FEEDBACK_LIMITS.contentMaxLength} characters`);
    expect(section).toContain(`at most ${FEEDBACK_LIMITS.imagesMax}`);
    expect(section).toContain(`${FEEDBACK_LIMITS.maxPerWindow} in ${FEEDBACK_LIMITS.windowMs / 3_600_000} hours`);
    expect(section).toContain(`| ${FEEDBACK_LIMITS.pageSize}, newest first`);
    expect(section).toContain(`| 1 to ${MEMBER_LIMITS.cancelReasonMaxLength} characters after trimming`);
    expect(section).toContain(`| at most ${MEMBER_LIMITS.qianmingMaxLength} characters after trimming`);
    expect(section).toContain(`| at most ${MEMBER_LIMITS.regionMaxLength} characters after trimming`);
    expect(section).toContain(`| from ${MEMBER_LIMITS.birthdayMin} to today`);
    expect(section).toContain(`| ${thousands(BLOCK_LIMITS.max)}, even blocked at once`);
    expect(section).toContain(`| ${ADDRESS_LIMITS.max}, even added at once`);
    expect(section).toContain(`| ${thousands(FOLLOW_LIMITS.max)}, even followed at once`);
    expect(section).toMatch(new RegExp(`guanzhu_list\` +\\| ${FOLLOW_LIMITS.pageSize}, newest first`));
    const { personNameMaxLength, organisationNameMaxLength, personImages, organisationImagesMax } =
      CERTIFICATION_LIMITS;
    expect(section).toContain(`| 2 to ${personNameMaxLength} characters, no digits`);
    expect(section).toContain(`| 2 to ${organisationNameMaxLength} characters `);
    expect(section).toContain(`| ${personImages} for a person, 1 or ${organisationImagesMax} for an organisation`);
    expect(section).toContain(`| 1 to ${CERTIFICATION_LIMITS.reasonMaxLength} characters `);
    expect(section).toContain(`| ${CERTIFICATION_LIMITS.pageSize}, oldest first`);
    expect(section).toMatch(new RegExp(`notify_list\` +\\| ${NOTICE_LIMITS.pageSize}, newest first`));
    const { daily, streakBonus, streakDays } = SIGN_IN_RULES;
    expect(section).toContain(`| ${daily}, and ${streakBonus} more every ${streakDays}th day in a row`);
    expect(section).toMatch(new RegExp(`jinbi_list\` +\\| ${TASK_LIMITS.pageSize}, newest first`));
    expect(section).toContain(`| ${ARTICLE_LIMITS.titleMin} to ${ARTICLE_LIMITS.titleMax} characters after trimming`);
    expect(section).toMatch(new RegExp(`video/lists\` +\\| ${ARTICLE_LIMITS.pageSize}, newest first`));
    expect(section).toContain(`| 1 to ${thousands(ARTICLE_LIMITS.contentMax)} characters after trimming`);
    expect(section).toContain(`| at most ${ARTICLE_LIMITS.imagesMax}, images the member uploaded`);
    expect(section).toContain(
      `| ${ARTICLE_LIMITS.maxPerWindow} in ${ARTICLE_LIMITS.windowMs / 3_600_000} hours, even sent at once`,
    );
    expect(section).toContain(`| 1 to ${REACTION_LIMITS.commentMax} characters after trimming`);
    expect(section).toContain(
      `| ${REACTION_LIMITS.commentsPerWindow} in ${REACTION_LIMITS.windowMs / 3_600_000} hours, even sent at once`,
    );
    expect(section).toContain(`| 1 to ${REPORT_LIMITS.contentMax} characters after trimming`);
    expect(section).toContain(
      `| ${REPORT_LIMITS.maxPerWindow} in ${REPORT_LIMITS.windowMs / 3_600_000} hours, even sent at once`,
    );
    expect(section).toMatch(new RegExp(`report queue +\\| ${REPORT_LIMITS.queuePageSize}, oldest first`));
    expect(section).toMatch(
      new RegExp(`article/list\` keyword +\\| at most ${ARTICLE_LIMITS.keywordMax} characters after trimming`),
    );
    expect(section).toMatch(new RegExp(`article/list\` +\\| ${ARTICLE_LIMITS.pageSize}, newest first`));
    expect(section).toContain(`| 1 to ${CHANNEL_LIMITS.nameMax} characters after trimming, unique`);
    expect(section).toContain(`| ${CHANNEL_LIMITS.max}, even added at once`);
    expect(section).toMatch(
      new RegExp(
        `a circle post's title +\\| ${CIRCLE_LIMITS.titleMin} to ${CIRCLE_LIMITS.titleMax} characters after trimming`,
      ),
    );
    expect(section).toContain(`| 1 to ${thousands(CIRCLE_LIMITS.contentMax)} characters after trimming`);
    expect(section).toContain(`| at most ${CIRCLE_LIMITS.imagesMax}, never with a vote`);
    const { optionsMin, optionsMax, optionMax, voteDays } = CIRCLE_LIMITS;
    expect(section).toContain(`| ${optionsMin} to ${optionsMax}, different, of 1 to ${optionMax} characters`);
    expect(section).toContain(`| ${voteDays.slice(0, -1).join(', ')} or ${voteDays.at(-1)} days`);
    expect(section).toContain(
      `| ${CIRCLE_LIMITS.maxPerWindow} in ${CIRCLE_LIMITS.windowMs / 3_600_000} hours, even sent at once  `,
    );
    expect(section).toMatch(new RegExp(`quanzi/list\` +\\| ${CIRCLE_LIMITS.pageSize}, newest first`));
    expect(section).toContain(`| 1 to ${TOPIC_LIMITS.titleMax} characters after trimming, unique`);
    expect(section).toContain(`| at most ${TOPIC_LIMITS.introMax} characters after trimming`);
    expect(section).toContain(`| ${TOPIC_LIMITS.max}, even added at once`);
    expect(section).toContain(`| ${INVITATION_RULES.coins}, for ${INVITATION_RULES.dailyMax} sign-ups in 24 hours`);
    expect(section).toMatch(new RegExp(`yaoqing_list\` +\\| ${INVITATION_LIMITS.pageSize}, newest first`));
    const { minYuan, maxYuan, coinsPerYuan, accountMaxLength, pageSize, queuePageSize } = WITHDRAWAL_LIMITS;
    expect(section).toContain(`| ${minYuan} to ${maxYuan} whole yuan, ${coinsPerYuan} coins each`);
    expect(section).toContain(`| a mobile number, or an email of at most ${accountMaxLength} `);
    expect(section).toMatch(new RegExp(`tixian_list\` +\\| ${pageSize}, newest first`));
    expect(section).toMatch(new RegExp(`withdrawal queue +\\| ${queuePageSize}, oldest first`));
    const shopPayout = SHOP_WITHDRAWAL_LIMITS;
    expect(section).toContain(`| ${shopPayout.minYuan} to ${shopPayout.maxYuan} whole yuan of sales income `);
    expect(section).toMatch(new RegExp(`business_tixian_list\` +\\| ${shopPayout.pageSize}, newest first`));
    const wallet = WALLET_LIMITS;
    expect(section).toContain(`| ${wallet.minYuan} to ${wallet.maxYuan} whole yuan  `);
    expect(section).toContain(`| ${wallet.maxUnpaid}, even asked at once  `);
    expect(section).toContain(`| 1 to ${wallet.reasonMaxLength} characters after trimming  `);
    expect(section).toContain(`| at most ${wallet.referenceMaxLength} characters after trimming  `);
    expect(section).toMatch(new RegExp(`recharge_list\` +\\| ${wallet.pageSize}, newest first`));
    expect(section).toMatch(new RegExp(`money_list\` +\\| ${wallet.pageSize}, newest first`));
    expect(section).toMatch(new RegExp(`recharge queue +\\| ${wallet.queuePageSize}, oldest first`));
    expect(section).toContain(`| 2 to ${SHOP_LIMITS.nameMaxLength} characters after trimming, unique`);
    expect(section).toContain(`| 1 to ${SHOP_LIMITS.introMaxLength} characters after trimming  `);
    expect(section).toMatch(new RegExp(`shop queue +\\| ${SHOP_LIMITS.queuePageSize}, oldest first`));
    const product = PRODUCT_LIMITS;
    expect(section).toContain(`| 1 to ${product.imagesMax}, different, uploaded by the seller`);
    expect(section).toContain(`| 2 to ${product.titleMax} characters after trimming  `);
    expect(section).toContain(`| 0.01 to ${product.priceMaxYuan} yuan, to the fen`);
    expect(section).toContain(`| a whole number from 0 to ${product.stockMax}  `);
    expect(section).toContain(`| 1 to ${product.contentMax} characters after trimming  `);
    expect(section).toContain(
      `| ${product.maxPerWindow} in ${product.windowMs / 3_600_000} hours, even sent at once  `,
    );
    expect(section).toContain(`| 1 to ${product.categoryNameMax} characters after trimming, unique`);
    expect(section).toContain(`| ${product.categoriesMax}, even added at once  `);
    expect(section).toMatch(new RegExp(`shop/list\` +\\| ${product.pageSize}, newest first`));
    expect(section).toMatch(new RegExp(`product queue +\\| ${product.queuePageSize}, oldest first`));
    expect(section).toContain(`| ${product.favouritesMax}, even kept at once  `);
    expect(section).toContain(`| the latest ${product.historyMax} products looked at  `);
    expect(section).toMatch(new RegExp(`taken out of a list at once +\\| 1 to ${product.unmarkMax} `));
    const order = ORDER_LIMITS;
    expect(section).toContain(`| 1 to ${order.linesMax} different, 1 to ${order.quantityMax} of each  `);
    expect(section).toContain(`| ${order.maxUnpaid}, even asked at once  `);
    expect(section).toContain(`| cancelled after ${order.unpaidMs / 60_000} minutes, stock back  `);
    expect(section).toContain(`| completed after ${order.receiptMs / 86_400_000} days  `);
    const guarantee = SERVICE_GUARANTEES;
    const yuan = guarantee.lateCompensationFen / 100;
    expect(section).toContain(
      `| ${guarantee.shipWithinMs / 3_600_000} hours; later, the buyer gets ${yuan} yuan, once  `,
    );
    expect(section).toContain(`| ${guarantee.returnWindowMs / 86_400_000} days after it completed, then seller paid  `);
    expect(section).toMatch(new RegExp(`company +\\| 1 to ${order.companyMax} characters after trimming`));
    expect(section).toContain(`| ${order.numberMin} to ${order.numberMax} letters, digits or '-'  `);
    expect(section).toMatch(new RegExp(`order_list\` +\\| ${order.pageSize}, newest first`));
    expect(section).toMatch(new RegExp(`refund's reason +\\| 1 to ${order.refundReasonMax} characters`));
    expect(section).toMatch(new RegExp(`refund's description +\\| 1 to ${order.refundDescriptionMax} characters`));
    expect(section).toContain(`| 1 to ${order.refundImagesMax}, different, uploaded by the buyer  `);
    expect(section).toMatch(new RegExp(`refuses a refund +\\| 1 to ${order.refuseReasonMax} characters`));
    const days = (ms: number) => ms / 86_400_000;
    expect(section).toContain(`| agreed after ${days(order.refundReplyMs)} days, money back  `);
    expect(section).toContain(`| within ${days(order.returnSendMs)} days, or the refund is cancelled  `);
    expect(section).toContain(`| received after ${days(order.returnReceiveMs)} days, money back  `);
    const claim = CLAIM_LIMITS;
    expect(section).toMatch(new RegExp(`claim's description +\\| 1 to ${claim.descriptionMax} characters`));
    expect(section).toContain(`| 1 to ${claim.imagesMax}, different, uploaded by the buyer  `);
    const hours = (ms: number) => ms / 3_600_000;
    expect(section).toContain(
      `| ${hours(guarantee.damageRefundMs)} hours after it completed, ${hours(guarantee.damageRefundFreshMs)} if fresh  `,
    );
    expect(section).toContain(`| ${days(guarantee.counterfeitClaimMs)} days after it completed  `);
    expect(section).toContain(`| ${guarantee.counterfeitTimes} times what was paid, charged to the seller  `);
    expect(section).toMatch(new RegExp(`decides a claim +\\| 1 to ${claim.reasonMax} characters`));
    expect(section).toMatch(new RegExp(`claim queue +\\| ${claim.queuePageSize}, oldest first`));
    const review = REVIEW_LIMITS;
    expect(section).toContain(`| 1 to ${review.ratingMax} each, all three  `);
    expect(section).toMatch(new RegExp(`review's words +\\| at most ${review.contentMax} characters`));
    expect(section).toContain(`| ${days(review.windowMs)} days after it completed  `);
    expect(section).toContain(`| 1 to ${review.replyMax} characters after trimming, once  `);
    expect(section).toMatch(new RegExp(`ping_list\` +\\| ${review.pageSize}, newest first`));
    const announcement = ANNOUNCEMENT_LIMITS;
    expect(section).toMatch(new RegExp(`announcement's title +\\| 1 to ${announcement.titleMax} characters`));
    expect(section).toMatch(new RegExp(`announcement's content +\\| 1 to ${announcement.contentMax} characters`));
    expect(section).toMatch(new RegExp(`gonggao_list\` +\\| ${announcement.pageSize}, pinned first, then newest`));
    expect(section).toMatch(new RegExp(`page of announcements +\\| ${announcement.pageSize}, pinned first`));
    const { nameMaxLength, regionMaxLength, detailMaxLength } = ADDRESS_LIMITS;
    expect(section).toContain(
      `| ${nameMaxLength}, ${regionMaxLength} and ${detailMaxLength} characters after trimming`,
    );
  });
});
