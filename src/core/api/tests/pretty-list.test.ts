// Indented lists (?pretty=true, and browsers: kube indents JSON for a
// User-Agent starting with Mozilla/5.0, curl or Wget) are streamed from the
// stored texts like compact ones (docs/decisions/0333); their bytes are the
// pretty encoder's layout of the whole list, kept for the next list of the same values.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';
import { encodeJson } from '../negotiation/json-encode';
import { createEstablished, cronTab, cronTabCrd } from '../../crd/tests/fixtures';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
});
afterEach(async () => t.close());

const PATH = '/api/v1/namespaces/default/configmaps';

describe('pretty lists', () => {
  it("are the pretty encoder's layout of the compact list, item for item, twice in a row and after a write", async () => {
    const data = [
      { 'a.b_c-d': 'c:"[d]",e{}', html: '<&>', nested: '{"json":"inside"}' },
      { empty: '' },
      { k: 'é😀\u2028' },
    ];
    for (const [i, d] of data.entries()) expect((await t.post(PATH, { metadata: { name: `cm-${i}`, labels: { z: '1', a: '2' } }, data: d })).status).toBe(201);
    const check = async () => {
      const compact = await t.get(PATH);
      const pretty = await t.get(`${PATH}?pretty=true`);
      expect(pretty.status).toBe(200);
      expect(pretty.headers.get('content-type')).toBe('application/json');
      expect(pretty.text).toBe(encodeJson(JSON.parse(compact.text), { pretty: true }));
      expect(pretty.text.endsWith('\n')).toBe(false);
      return pretty.text;
    };
    const first = await check();
    expect(await check()).toBe(first);
    expect((await t.patch(`${PATH}/cm-1`, { data: { empty: 'now set' } }, 'application/merge-patch+json')).status).toBe(200);
    expect(await check()).toContain('"empty": "now set"');
  });

  it('a browser User-Agent gets the indented list, curl too, an unknown client the compact one', async () => {
    await t.post(PATH, { metadata: { name: 'one' }, data: { k: 'v' } });
    const browser = await t.get(PATH, { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36' });
    const curl = await t.get(PATH, { 'user-agent': 'curl/8.5.0' });
    const other = await t.get(PATH, { 'user-agent': 'kubectl/v1.32.0 (linux/amd64) kubernetes/abcdef' });
    expect(browser.text).toMatch(/^\{\n {2}"kind": "ConfigMapList",\n {2}"apiVersion": "v1",\n {2}"metadata": \{\n {4}"resourceVersion": "\d+"\n {2}\},\n {2}"items": \[\n {4}\{\n {6}"metadata": \{/);
    expect(curl.text).toBe(browser.text);
    expect(other.text).toBe(`${JSON.stringify(JSON.parse(other.text))}\n`);
  });

  it('integer-like map keys keep Go order ("10" before "9") when indented', async () => {
    await t.post(PATH, { metadata: { name: 'ints' }, data: { '9': 'nine', '10': 'ten' } });
    const pretty = (await t.get(`${PATH}?pretty=true`)).text;
    expect(pretty).toContain('      "data": {\n        "10": "ten",\n        "9": "nine"\n      }');
  });

  it('a page of a paged list, an empty list and a custom resource list are laid out as the encoder lays them out', async () => {
    for (const name of ['a', 'b', 'c']) await t.post(PATH, { metadata: { name }, data: { k: name } });
    const page = await t.get(`${PATH}?pretty=true&limit=2`);
    const parsed = JSON.parse(page.text);
    expect(parsed.items).toHaveLength(2);
    expect(parsed.metadata.continue).toBeTruthy();
    expect(page.text).toBe(encodeJson(parsed, { pretty: true }));
    const empty = await t.get('/api/v1/namespaces/kube-public/configmaps?pretty=true&labelSelector=none%3Dhere');
    expect(empty.text).toMatch(/"items": \[\]\n\}$/);

    const crs = '/apis/stable.example.com/v1/namespaces/default/crontabs';
    await createEstablished(t, cronTabCrd(), crs);
    expect((await t.post(crs, cronTab('c1', { cronSpec: '* * * * */5', image: 'img', replicas: 1 }))).status).toBe(201);
    const crList = await t.get(`${crs}?pretty=true`);
    expect(crList.text).toBe(encodeJson(JSON.parse((await t.get(crs)).text), { pretty: true }));
    expect(Object.keys(JSON.parse(crList.text))).toEqual(['apiVersion', 'items', 'kind', 'metadata']);
  });
});
