// The JSON Schemas (assembled from protocol/schema and protocol/games/<id>/schema) agree with the C codec on the golden cases (tests/golden):
// every server message a builder must produce validates against the schema of its type; every
// archive validates against archive.json exactly when its expected.json says `schema: true`; and
// each game's options table in common.json accepts what the codec accepts and refuses what it
// refuses (state.options with every key of the game). Nothing here is generated: the files are
// the same ones the C tests read, so a drift between the schemas and the codec fails one of them.
// A case marked `schema_agrees: false` is one a schema cannot express (10.0 is an integer to JSON
// Schema, not to the codec); its expected.json says why.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const SOURCE = process.env.QUINTETO_SOURCE;
assert.ok(SOURCE, 'QUINTETO_SOURCE must name the source tree');
// The schemas as protocol/schema/assemble.py assembled them (templates + every game's part).
const SCHEMA_DIR = process.env.QUINTETO_TEST_SCHEMA;
assert.ok(SCHEMA_DIR, 'QUINTETO_TEST_SCHEMA must name the assembled schemas');
const GOLDEN = path.join(SOURCE, 'tests', 'golden');
const BASE = 'https://schema.quinteto.example/';

async function listJson(dir) {
  const out = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await listJson(p)));
    else if (e.name.endsWith('.json')) out.push(p);
  }
  return out;
}

const readJson = async (file) => JSON.parse(await readFile(file, 'utf8'));
const index = await readJson(path.join(SCHEMA_DIR, 'index.json'));
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
for (const file of await listJson(SCHEMA_DIR)) {
  const rel = path.relative(SCHEMA_DIR, file).split(path.sep).join('/');
  if (rel === 'index.json') continue;
  const schema = await readJson(file);
  ajv.addSchema(schema, schema.$id ? undefined : BASE + rel);
}
const validate = (ref, value) => {
  const v = ajv.getSchema(BASE + ref);
  assert.ok(v, `no schema ${ref}`);
  return v(value) ? null : ajv.errorsText(v.errors);
};
const cases = async (sub) => (await readdir(path.join(GOLDEN, sub))).sort().map((n) => [n, path.join(GOLDEN, sub, n)]);

test('every file index.json lists compiles, and every server type has a schema file', () => {
  for (const rel of index.files) assert.ok(ajv.getSchema(BASE + rel), rel);
  for (const type of ['welcome', 'created', 'resigned', 'state', 'error']) assert.ok(index.server[type], type);
});

test('golden server messages validate against the schema of their type', async () => {
  const list = await cases('server');
  assert.ok(list.length >= 4);
  for (const [name, dir] of list) {
    const msg = await readJson(path.join(dir, 'expected.json'));
    assert.equal(validate(index.server[msg.type], msg), null, `server/${name}`);
  }
});

test('golden archives validate against archive.json exactly when expected', async () => {
  const list = await cases('archive');
  assert.ok(list.length >= 10);
  for (const [name, dir] of list) {
    const want = await readJson(path.join(dir, 'expected.json'));
    const err = validate('archive.json', await readJson(path.join(dir, 'archive.json')));
    assert.equal(err === null, want.schema, `archive/${name}: ${err ?? 'valid'}`);
  }
});

test("each game's options schema accepts what the codec accepts, refuses what it refuses", async () => {
  const list = await cases('options');
  assert.ok(list.length >= 20);
  for (const [name, dir] of list) {
    const input = await readJson(path.join(dir, 'input.json'));
    const want = await readJson(path.join(dir, 'expected.json'));
    const ref = `common.json#/$defs/options_${input.game}`;
    if (want.error) {
      const opts = input.options;
      if (opts !== null && typeof opts === 'object' && !Array.isArray(opts) && want.schema_agrees !== false)
        assert.notEqual(validate(ref, opts), null, `options/${name}: the schema accepts what the codec refuses`);
      continue;
    }
    assert.equal(validate(ref, input.options ?? {}), null, `options/${name}: as given`);
    assert.equal(validate(ref, want.options), null, `options/${name}: encoded`);
    assert.equal(validate('common.json#/$defs/game_options_full', { game: input.game, options: want.state_options }),
      null, `options/${name}: state.options`);
    if (Object.keys(want.state_options).length > 0) {
      const missing = { ...want.state_options };
      delete missing[Object.keys(missing)[0]];
      assert.notEqual(validate('common.json#/$defs/game_options_full', { game: input.game, options: missing }),
        null, `options/${name}: state.options must have every key`);
    }
  }
});

test("each game's action schema accepts exactly the golden actions it should (tests/golden/actions)", async () => {
  for (const [name, dir] of await cases('actions').catch(() => [])) {
    const input = await readJson(path.join(dir, 'input.json'));
    const want = await readJson(path.join(dir, 'expected.json'));
    const err = validate(index.games[input.game].action, input.action);
    assert.equal(err === null, want.schema, `actions/${name}: ${err ?? 'valid'}`);
  }
});
