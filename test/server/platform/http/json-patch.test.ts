// RFC 6902 JSON Patch: the RFC's Appendix A examples, the json-patch-tests suite's edge cases, and the prototype guard.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyJsonPatch, JsonPatchError, type JsonPatchOperation } from '../../../../src/server/platform/http/json-patch.js';

type Case = { name: string; doc: unknown; patch: unknown[]; expected?: unknown; error?: true };

const rfcAppendixA: Case[] = [
  {
    name: 'A.1 adding an object member',
    doc: { foo: 'bar' },
    patch: [{ op: 'add', path: '/baz', value: 'qux' }],
    expected: { baz: 'qux', foo: 'bar' },
  },
  {
    name: 'A.2 adding an array element',
    doc: { foo: ['bar', 'baz'] },
    patch: [{ op: 'add', path: '/foo/1', value: 'qux' }],
    expected: { foo: ['bar', 'qux', 'baz'] },
  },
  {
    name: 'A.3 removing an object member',
    doc: { baz: 'qux', foo: 'bar' },
    patch: [{ op: 'remove', path: '/baz' }],
    expected: { foo: 'bar' },
  },
  {
    name: 'A.4 removing an array element',
    doc: { foo: ['bar', 'qux', 'baz'] },
    patch: [{ op: 'remove', path: '/foo/1' }],
    expected: { foo: ['bar', 'baz'] },
  },
  {
    name: 'A.5 replacing a value',
    doc: { baz: 'qux', foo: 'bar' },
    patch: [{ op: 'replace', path: '/baz', value: 'boo' }],
    expected: { baz: 'boo', foo: 'bar' },
  },
  {
    name: 'A.6 moving a value',
    doc: { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } },
    patch: [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }],
    expected: { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } },
  },
  {
    name: 'A.7 moving an array element',
    doc: { foo: ['all', 'grass', 'cows', 'eat'] },
    patch: [{ op: 'move', from: '/foo/1', path: '/foo/3' }],
    expected: { foo: ['all', 'cows', 'eat', 'grass'] },
  },
  {
    name: 'A.8 testing a value: success',
    doc: { baz: 'qux', foo: ['a', 2, 'c'] },
    patch: [
      { op: 'test', path: '/baz', value: 'qux' },
      { op: 'test', path: '/foo/1', value: 2 },
    ],
    expected: { baz: 'qux', foo: ['a', 2, 'c'] },
  },
  { name: 'A.9 testing a value: error', doc: { baz: 'qux' }, patch: [{ op: 'test', path: '/baz', value: 'bar' }], error: true },
  {
    name: 'A.10 adding a nested member object',
    doc: { foo: 'bar' },
    patch: [{ op: 'add', path: '/child', value: { grandchild: {} } }],
    expected: { foo: 'bar', child: { grandchild: {} } },
  },
  { name: 'A.12 adding to a nonexistent target', doc: { foo: 'bar' }, patch: [{ op: 'add', path: '/baz/bat', value: 'qux' }], error: true },
  {
    name: 'A.14 ~ escape ordering',
    doc: { '/': 9, '~1': 10 },
    patch: [{ op: 'test', path: '/~01', value: 10 }],
    expected: { '/': 9, '~1': 10 },
  },
  {
    name: 'A.15 comparing strings and numbers',
    doc: { '/': 9, '~1': 10 },
    patch: [{ op: 'test', path: '/~01', value: '10' }],
    error: true,
  },
  {
    name: 'A.16 adding an array value',
    doc: { foo: ['bar'] },
    patch: [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }],
    expected: { foo: ['bar', ['abc', 'def']] },
  },
];

// From the json-patch-tests suite (github.com/json-patch/json-patch-tests, tests.json / spec_tests.json).
const suite: Case[] = [
  { name: 'empty patch on an empty document', doc: {}, patch: [], expected: {} },
  {
    name: 'replace the whole document',
    doc: { foo: 1 },
    patch: [{ op: 'replace', path: '', value: { baz: 'qux' } }],
    expected: { baz: 'qux' },
  },
  { name: 'add replaces an existing member', doc: { foo: 1 }, patch: [{ op: 'add', path: '/foo', value: 2 }], expected: { foo: 2 } },
  { name: 'add to the empty key', doc: {}, patch: [{ op: 'add', path: '/', value: 1 }], expected: { '': 1 } },
  { name: 'add at the end index', doc: [1, 2], patch: [{ op: 'add', path: '/2', value: 3 }], expected: [1, 2, 3] },
  { name: 'add past the end is an error', doc: { bar: [1, 2] }, patch: [{ op: 'add', path: '/bar/8', value: '5' }], error: true },
  { name: 'add at a negative index is an error', doc: { bar: [1, 2] }, patch: [{ op: 'add', path: '/bar/-1', value: '5' }], error: true },
  { name: 'leading zero index is an error', doc: [1, 2], patch: [{ op: 'add', path: '/01', value: 3 }], error: true },
  { name: 'remove a missing member is an error', doc: { foo: 1 }, patch: [{ op: 'remove', path: '/bar' }], error: true },
  { name: 'replace a missing member is an error', doc: { foo: 1 }, patch: [{ op: 'replace', path: '/bar', value: 2 }], error: true },
  { name: 'replace an array element', doc: [1, 2, 3], patch: [{ op: 'replace', path: '/1', value: 9 }], expected: [1, 9, 3] },
  {
    name: 'copy a member',
    doc: { foo: { a: 1 } },
    patch: [{ op: 'copy', from: '/foo', path: '/bar' }],
    expected: { foo: { a: 1 }, bar: { a: 1 } },
  },
  { name: 'copy from a missing member is an error', doc: {}, patch: [{ op: 'copy', from: '/x', path: '/y' }], error: true },
  { name: 'move into itself is an error', doc: { a: { b: 1 } }, patch: [{ op: 'move', from: '/a', path: '/a/b/c' }], error: true },
  {
    name: 'test compares objects regardless of key order',
    doc: { a: { x: 1, y: 2 } },
    patch: [{ op: 'test', path: '/a', value: { y: 2, x: 1 } }],
    expected: { a: { x: 1, y: 2 } },
  },
  { name: 'test compares arrays in order', doc: { a: [1, 2] }, patch: [{ op: 'test', path: '/a', value: [2, 1] }], error: true },
  { name: 'test null', doc: { a: null }, patch: [{ op: 'test', path: '/a', value: null }], expected: { a: null } },
  { name: 'pointer without a leading slash is an error', doc: { a: 1 }, patch: [{ op: 'remove', path: 'a' }], error: true },
  {
    name: 'a failing operation leaves nothing applied',
    doc: { a: 1 },
    patch: [
      { op: 'add', path: '/b', value: 2 },
      { op: 'test', path: '/a', value: 2 },
    ],
    error: true,
  },
];

describe('JSON Patch (RFC 6902)', () => {
  for (const c of [...rfcAppendixA, ...suite]) {
    it(c.name, () => {
      const before = structuredClone(c.doc);
      if (c.error) assert.throws(() => applyJsonPatch(c.doc, c.patch as JsonPatchOperation[]), JsonPatchError);
      else assert.deepEqual(applyJsonPatch(c.doc, c.patch as JsonPatchOperation[]), c.expected);
      assert.deepEqual(c.doc, before, 'the input document is never changed');
    });
  }

  it('refuses __proto__ and constructor/prototype paths, and Object.prototype stays clean', () => {
    for (const path of ['/__proto__/polluted', '/__proto__', '/a/__proto__/x', '/constructor/prototype/polluted']) {
      assert.throws(() => applyJsonPatch({ a: {} }, [{ op: 'add', path, value: 'yes' }]), JsonPatchError, path);
      assert.throws(() => applyJsonPatch({ a: {} }, [{ op: 'copy', from: '/a', path }]), JsonPatchError, path);
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    // A member merely named "constructor" is ordinary data.
    assert.deepEqual(applyJsonPatch({}, [{ op: 'add', path: '/constructor', value: 1 }]), { constructor: 1 });
  });
});
