import { describe, expect, it } from 'vitest';
import { insertAtCaret } from './insert-at-caret';

describe('insertAtCaret', () => {
  it.each([
    ['', 0, 0, '[0:12.4]', 8],
    ['Fix the take', 12, 12, 'Fix the take [0:12.4]', 21],
    ['Fix the take', 3, 3, 'Fix [0:12.4] the take', 12],
    ['Fix XX take', 4, 6, 'Fix [0:12.4] take', 12],
    ['abc', null, null, 'abc [0:12.4]', 12],
  ])('%j at %s..%s', (text, start, end, expected, caret) => {
    expect(insertAtCaret(text, '[0:12.4]', start, end)).toEqual({ text: expected, caret });
  });
});
