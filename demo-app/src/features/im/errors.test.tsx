// @vitest-environment jsdom
import { MESSAGES, ParleyError } from 'parley-im';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../../i18n';
import { errorText } from './errors';

const en = createI18n('en').t;
const zh = createI18n('zh-CN').t;
const say = (code: number, content: string, t = en) => errorText(new ParleyError(code, content), t);

describe('messaging errors in the user’s words', () => {
  it('translates the SDK’s known messages, in English and Chinese', () => {
    expect(say(400, MESSAGES.toSelf)).toBe('You cannot message yourself');
    expect(say(400, MESSAGES.toSelf, zh)).toBe('不能给自己发消息');
    expect(say(400, MESSAGES.fileTooLarge)).toBe('Files can be at most 30 MB');
    expect(say(400, MESSAGES.fileTooLarge, zh)).toBe('文件不能超过 30 MB');
    expect(say(400, MESSAGES.fileSizeZero)).toBe('The file is empty');
    expect(say(400, MESSAGES.wrongFileType)).toBe('This file cannot be sent');
    expect(say(400, MESSAGES.textTooLong)).toBe('A message can have at most 2500 characters');
    expect(say(500, MESSAGES.uploadAborted, zh)).toBe('已取消上传');
    expect(say(400, MESSAGES.csAcceptedByOther)).toBe('Another agent has accepted this customer');
    expect(say(400, MESSAGES.csOfflineWithCustomers, zh)).toBe('还有正在接待的客户，请先结束或转接');
  });

  it('reads the type list out of a wrong media type, and the recall refusals with an index', () => {
    expect(say(400, 'Only gif,jpg,png,jpeg is supported image.')).toBe('Only gif, jpg, png, jpeg images can be sent');
    expect(say(400, 'Only mp3,ogg,wav,wma,ape,acc,mpeg is supported audio.', zh)).toBe(
      '音频只支持 mp3, ogg, wav, wma, ape, acc, mpeg 格式',
    );
    expect(say(400, 'Only avi,mov is supported video.')).toBe('Only avi, mov videos can be sent');
    expect(say(400, 'message[0] is sending and cannot be recalled')).toBe('This message cannot be recalled');
    expect(say(400, 'message[3] has been recalled', zh)).toBe('这条消息不能撤回');
  });

  it('says an upload failed for the storage’s refusals, whatever their detail', () => {
    expect(say(500, `${MESSAGES.uploadFailed}: HTTP 503`)).toBe('Upload failed, please retry');
    expect(say(403, MESSAGES.uploadPolicyExpired, zh)).toBe('上传失败，请重试');
  });

  it('falls back to the code’s words, then to "operation failed", never to the English text', () => {
    expect(say(408, 'socket timed out somewhere')).toBe('The network timed out, please retry');
    expect(say(401, 'nope')).toBe('No permission');
    expect(say(409, 'later')).toBe('Not connected yet, please retry');
    expect(say(429, 'slow down', zh)).toBe('操作太频繁，请稍后再试');
    expect(say(400, 'something the app has never seen')).toBe('Operation failed');
    expect(say(500, 'Internal server error', zh)).toBe('操作失败');
    expect(errorText(new TypeError('x is undefined'), en)).toBe('Unknown error');
    expect(errorText('boom', zh)).toBe('未知错误');
  });
});
