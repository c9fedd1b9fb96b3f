import type { Kysely, Migration, MigrationProvider } from 'kysely';
import { csMigration } from './cs-migration.js';
import { dedupeOrderMigration } from './dedupe-order-migration.js';
import { feedbackMigration } from './feedback-migration.js';
import { imHeadsMigration } from './im-heads-migration.js';
import { memberAddressesMigration } from './member-addresses-migration.js';
import { memberBlocksMigration } from './member-blocks-migration.js';
import { memberCancelMigration } from './member-cancel-migration.js';
import { memberCertificationsMigration } from './member-certifications-migration.js';
import { memberCodeQuotaMigration } from './member-code-quota-migration.js';
import { memberDetailsMigration } from './member-details-migration.js';
import { memberFollowsMigration } from './member-follows-migration.js';
import { memberNoticesMigration } from './member-notices-migration.js';
import { memberTasksMigration } from './member-tasks-migration.js';
import { memberWithdrawalsMigration } from './member-withdrawals-migration.js';
import { memberInvitationsMigration } from './member-invitations-migration.js';
import { articlesMigration } from './articles-migration.js';
import { articleReactionsMigration } from './article-reactions-migration.js';
import { reportsMigration } from './reports-migration.js';
import { articleCollectionsMigration } from './article-collections-migration.js';
import { articleChannelsMigration } from './article-channels-migration.js';
import { circlePostsMigration } from './circle-posts-migration.js';
import { circleTopicsMigration } from './circle-topics-migration.js';
import { memberWalletMigration } from './member-wallet-migration.js';
import { shopsMigration } from './shops-migration.js';
import { productsMigration } from './products-migration.js';
import { ordersMigration } from './orders-migration.js';
import { orderRefundsMigration } from './order-refunds-migration.js';
import { orderGuaranteesMigration } from './order-guarantees-migration.js';
import { orderClaimsMigration } from './order-claims-migration.js';
import { orderReviewsMigration } from './order-reviews-migration.js';
import { productMarksMigration } from './product-marks-migration.js';
import { shopAnnouncementsMigration } from './shop-announcements-migration.js';
import { shopWithdrawalsMigration } from './shop-withdrawals-migration.js';
import { articleVideosMigration } from './article-videos-migration.js';
import { circleVideosMigration } from './circle-videos-migration.js';
import { circleTitlesMigration } from './circle-titles-migration.js';
import { circleReactionsMigration } from './circle-reactions-migration.js';
import { commentRepliesMigration } from './comment-replies-migration.js';
import { loginTicketsMigration } from './login-tickets-migration.js';
import { adsMigration } from './ads-migration.js';
import { hiddenMigration } from './hidden-migration.js';
import { liveMigration } from './live-migration.js';
import { liveLinksMigration } from './live-links-migration.js';
import { liveLinkStreamMigration } from './live-link-stream-migration.js';
import { liveStreamMigration } from './live-stream-migration.js';
import { postsProductsSearchIndexMigration, searchIndexMigration } from './search-index-migration.js';
import { uploadDeletionsMigration } from './upload-deletions-migration.js';
import { memberUsernameMigration } from './member-username-migration.js';
import { membersMigration } from './members-migration.js';
import { pubsubMigration } from './pubsub-migration.js';
import { pubsubTimeMigration } from './pubsub-time-migration.js';
import { pubsubSessionsMigration } from './pubsub-sessions-migration.js';
import { storeMarksMigration } from './store-marks-migration.js';
import { rechargeOrdersMigration } from './recharge-orders-migration.js';
import { webhookDeliveriesMigration } from './webhook-deliveries-migration.js';
import { sessionReplayMigration } from './session-replay-migration.js';

/**
 * The one migration set, valid on SQLite and PostgreSQL: only portable column types (`varchar`, `bigint`) and
 * Kysely's schema builder. Names sort in the order they apply; never edit one that has shipped, add a new one.
 */
const MIGRATIONS: Record<string, Migration> = {
  '0001_sessions': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('sessions')
        .addColumn('sid', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('appkey', 'varchar(128)', (c) => c.notNull())
        .addColumn('user_id', 'varchar(64)')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
        .execute();
      // deleteExpired scans by last_seen_at.
      await db.schema.createIndex('sessions_last_seen_at').on('sessions').column('last_seen_at').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('sessions').execute();
    },
  },
  '0002_im': {
    async up(db: Kysely<unknown>) {
      // Ids are bounded by the services (MAX_ID_LENGTH, 128); a private conversation key holds two of them.
      const id = 'varchar(128)';
      await db.schema
        .createTable('users')
        .addColumn('appkey', id, (c) => c.notNull())
        .addColumn('user_id', id, (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('users_pk', ['appkey', 'user_id'])
        .execute();
      await db.schema
        .createTable('im_messages')
        .addColumn('appkey', id, (c) => c.notNull())
        .addColumn('conv_key', 'varchar(300)', (c) => c.notNull())
        .addColumn('ts', 'bigint', (c) => c.notNull())
        .addColumn('scene', 'varchar(16)', (c) => c.notNull())
        .addColumn('message_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('sender_id', id, (c) => c.notNull())
        .addColumn('target_id', id, (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('sender_data', 'text', (c) => c.notNull())
        .addColumn('recalled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('recaller', 'text')
        // History pages and the newest message walk this key; it also makes timestamps unique per conversation.
        .addPrimaryKeyConstraint('im_messages_pk', ['appkey', 'conv_key', 'ts'])
        .execute();
      // The idempotency key of publishIM.
      await db.schema
        .createIndex('im_messages_dedupe')
        .on('im_messages')
        .columns(['appkey', 'sender_id', 'message_id'])
        .unique()
        .execute();
      await db.schema
        .createTable('im_deletions')
        .addColumn('appkey', id, (c) => c.notNull())
        .addColumn('user_id', id, (c) => c.notNull())
        .addColumn('conv_key', 'varchar(300)', (c) => c.notNull())
        .addColumn('ts', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('im_deletions_pk', ['appkey', 'user_id', 'conv_key', 'ts'])
        .execute();
      await db.schema
        .createTable('im_read_offsets')
        .addColumn('appkey', id, (c) => c.notNull())
        .addColumn('conv_key', 'varchar(300)', (c) => c.notNull())
        .addColumn('user_id', id, (c) => c.notNull())
        .addColumn('read_ts', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('im_read_offsets_pk', ['appkey', 'conv_key', 'user_id'])
        .execute();
      await db.schema
        .createTable('im_conversations')
        .addColumn('appkey', id, (c) => c.notNull())
        .addColumn('owner_id', id, (c) => c.notNull())
        .addColumn('scene', 'varchar(16)', (c) => c.notNull())
        .addColumn('target_id', id, (c) => c.notNull())
        .addColumn('conv_key', 'varchar(300)', (c) => c.notNull())
        .addColumn('top', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('removed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('last_ts', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('im_conversations_pk', ['appkey', 'owner_id', 'scene', 'target_id'])
        .execute();
      // The conversation list: one owner's rows, newest first.
      await db.schema
        .createIndex('im_conversations_by_owner')
        .on('im_conversations')
        .columns(['appkey', 'owner_id', 'last_ts'])
        .execute();
      await db.schema
        .createTable('im_group_members')
        .addColumn('appkey', id, (c) => c.notNull())
        .addColumn('group_id', id, (c) => c.notNull())
        .addColumn('user_id', id, (c) => c.notNull())
        .addColumn('joined_at', 'bigint', (c) => c.notNull())
        // By group (fan-out of a message) through the key; by user (presence of a user's groups) through the index.
        .addPrimaryKeyConstraint('im_group_members_pk', ['appkey', 'group_id', 'user_id'])
        .execute();
      await db.schema
        .createIndex('im_group_members_by_user')
        .on('im_group_members')
        .columns(['appkey', 'user_id'])
        .execute();
      await db.schema
        .createTable('presence_user_subscriptions')
        .addColumn('appkey', id, (c) => c.notNull())
        .addColumn('subscriber_id', id, (c) => c.notNull())
        .addColumn('user_id', id, (c) => c.notNull())
        .addPrimaryKeyConstraint('presence_user_subscriptions_pk', ['appkey', 'subscriber_id', 'user_id'])
        .execute();
      await db.schema
        .createIndex('presence_user_subscriptions_by_user')
        .on('presence_user_subscriptions')
        .columns(['appkey', 'user_id'])
        .execute();
      await db.schema
        .createTable('presence_group_subscriptions')
        .addColumn('appkey', id, (c) => c.notNull())
        .addColumn('subscriber_id', id, (c) => c.notNull())
        .addColumn('group_id', id, (c) => c.notNull())
        .addPrimaryKeyConstraint('presence_group_subscriptions_pk', ['appkey', 'subscriber_id', 'group_id'])
        .execute();
      await db.schema
        .createIndex('presence_group_subscriptions_by_group')
        .on('presence_group_subscriptions')
        .columns(['appkey', 'group_id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of [
        'presence_group_subscriptions',
        'presence_user_subscriptions',
        'im_group_members',
        'im_conversations',
        'im_read_offsets',
        'im_deletions',
        'im_messages',
        'users',
      ]) {
        await db.schema.dropTable(table).execute();
      }
    },
  },
  '0003_pubsub': pubsubMigration,
  '0004_cs': csMigration,
  '0005_members': membersMigration,
  '0006_im_heads': imHeadsMigration,
  '0007_pubsub_sessions': pubsubSessionsMigration,
  '0008_member_username_changed': memberUsernameMigration,
  '0009_pubsub_messages_by_time': pubsubTimeMigration,
  '0010_dedupe_by_message_id': dedupeOrderMigration,
  '0011_store_marks': storeMarksMigration,
  '0012_member_code_quota': memberCodeQuotaMigration,
  '0013_member_feedback': feedbackMigration,
  '0014_member_cancelled': memberCancelMigration,
  '0015_member_details': memberDetailsMigration,
  '0016_member_blocks': memberBlocksMigration,
  '0017_member_addresses': memberAddressesMigration,
  '0018_member_follows': memberFollowsMigration,
  '0019_member_certifications': memberCertificationsMigration,
  '0020_member_notices': memberNoticesMigration,
  '0021_member_tasks': memberTasksMigration,
  '0022_member_withdrawals': memberWithdrawalsMigration,
  '0023_member_invitations': memberInvitationsMigration,
  '0024_articles': articlesMigration,
  '0025_article_reactions': articleReactionsMigration,
  '0026_reports': reportsMigration,
  '0027_article_collections': articleCollectionsMigration,
  '0028_article_channels': articleChannelsMigration,
  '0029_circle_posts': circlePostsMigration,
  '0030_circle_topics': circleTopicsMigration,
  '0031_member_wallet': memberWalletMigration,
  '0032_shops': shopsMigration,
  '0033_products': productsMigration,
  '0034_orders': ordersMigration,
  '0035_order_refunds': orderRefundsMigration,
  '0036_order_reviews': orderReviewsMigration,
  '0037_product_marks': productMarksMigration,
  '0038_shop_announcements': shopAnnouncementsMigration,
  '0039_shop_withdrawals': shopWithdrawalsMigration,
  '0040_article_videos': articleVideosMigration,
  '0041_circle_videos': circleVideosMigration,
  '0042_circle_reactions': circleReactionsMigration,
  '0043_comment_replies': commentRepliesMigration,
  '0044_login_tickets': loginTicketsMigration,
  '0045_ads': adsMigration,
  '0046_member_hidden': hiddenMigration,
  '0047_live': liveMigration,
  '0048_live_links': liveLinksMigration,
  '0049_live_stream_lost': liveStreamMigration,
  '0050_live_link_stream_lost': liveLinkStreamMigration,
  '0051_upload_deletions': uploadDeletionsMigration,
  '0052_search_index': searchIndexMigration,
  '0053_webhook_deliveries': webhookDeliveriesMigration,
  '0054_circle_titles': circleTitlesMigration,
  '0055_order_guarantees': orderGuaranteesMigration,
  '0056_recharge_orders': rechargeOrdersMigration,
  '0057_order_claims': orderClaimsMigration,
  '0058_search_index_posts_products': postsProductsSearchIndexMigration,
  '0059_session_replay': sessionReplayMigration,
};

/** Serves {@link MIGRATIONS} to Kysely's Migrator from code, so nothing is read from disk at run time. */
export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(MIGRATIONS),
};
