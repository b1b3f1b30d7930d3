// Connectors in live conversations: the PAL offers the model the MCP tools of its connectors (scoped by
// layers.mcp.connector_tools), calls the ones the model asks for through the MCP SDK with the
// connector's credentials, shows each call as conversation.tool_call, and answers with the result; and
// objective values recorded by the model from what the visitor said and from tool results.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakeLlm, type FakeLlm } from '../../../helpers/fake-llm.js';
import { insertConversation, insertPal, RoomClient, startCallbackReceiver, type CallbackReceiver } from '../../../helpers/live-fixtures.js';
import { startMcpTestServer, type McpTestServer } from '../../../helpers/mcp-test-server.js';
import { startListeningService, type TestService } from '../../../helpers/service.js';

describe('connectors in conversations', () => {
  let t: TestService;
  let llm: FakeLlm;
  let mcp: McpTestServer;
  let moved: McpTestServer;
  let connectorId: string;

  before(async () => {
    llm = await startFakeLlm();
    mcp = await startMcpTestServer((token) => token === 'tok-weather-1');
    moved = await startMcpTestServer((token) => token === 'tok-weather-1');
    t = await startListeningService({
      PALKIT_LLM_BASE_URL: llm.baseUrl,
      PALKIT_LLM_API_KEY: 'sk-test',
      PALKIT_PAL_WORDS_PER_MINUTE: '1200',
    });
    const created = await t.api('POST', '/v2/connectors', {
      name: 'Weather',
      server_url: mcp.url,
      auth_config: { type: 'bearer', token: 'tok-weather-1' },
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    connectorId = created.body.connector_id;
  });
  after(async () => {
    await t.close();
    await Promise.all([llm.close(), mcp.close(), moved.close()]);
  });

  const replica = (speech: string) => (m: { properties: Record<string, any> }) =>
    m.properties.role === 'replica' && m.properties.speech === speech;

  async function talk(palId: string, question: string) {
    const room = await insertConversation(t, { palId, customGreeting: 'Hi.' });
    const client = await RoomClient.join(room.conversationUrl, room.token, 'Dana');
    await client.waitForEvent('conversation.utterance', replica('Hi.'));
    const before = llm.requests.length;
    client.say('conversation.respond', { text: question });
    return { client, requests: () => llm.requests.slice(before) };
  }

  it('offers only the scoped tools, calls the one the model asks for, and answers with its result', async () => {
    const palId = await insertPal(t, {
      definition: { layers: { mcp: { connectors: [connectorId], connector_tools: { [connectorId]: ['get_weather', 'ping'] } } } },
    });
    llm.script.push({ toolCalls: [{ id: 'call_w1', name: 'get_weather', arguments: '{"city":"Lisbon"}' }] }, [
      'It is',
      ' sunny in Lisbon',
      ' today.',
    ]);
    const seenBefore = mcp.seenTokens.length;
    const { client, requests } = await talk(palId, 'What is the weather in Lisbon?');
    await client.waitForEvent('conversation.utterance', replica('It is sunny in Lisbon today.'));

    const [first, second] = requests();
    assert.deepEqual(
      first!.body.tools.map((x: { function: { name: string } }) => x.function.name).sort(),
      ['get_weather', 'ping'],
      'add is not in connector_tools',
    );
    const weather = first!.body.tools.find((x: { function: { name: string } }) => x.function.name === 'get_weather');
    assert.equal(weather.type, 'function');
    assert.equal(weather.function.description, 'Weather: Current weather for a city', 'the connector’s name labels its tools (E21)');
    assert.deepEqual(weather.function.parameters.required, ['city']);

    // The second request carries the call and the tool's own answer.
    const messages = second!.body.messages;
    assert.deepEqual(messages.at(-2), {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_w1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Lisbon"}' } }],
    });
    assert.deepEqual(messages.at(-1), { role: 'tool', tool_call_id: 'call_w1', content: 'Sunny in Lisbon' });
    assert.ok(
      mcp.seenTokens.slice(seenBefore).every((x) => x === 'tok-weather-1') && mcp.seenTokens.length > seenBefore,
      "the connector's credentials reach its server",
    );

    const call = client.events('conversation.tool_call').find((m) => m.properties.tool_call_id === 'call_w1');
    assert.ok(call, 'the call is shown in the room');
    assert.deepEqual(call.properties, { name: 'get_weather', arguments: '{"city":"Lisbon"}', tool_call_id: 'call_w1' });
    const question = client.events('conversation.utterance').find((m) => m.properties.role === 'user');
    assert.equal(call.inference_id, question?.inference_id, "the call belongs to the visitor's turn");
    client.close();
  });

  it('tells the model when a tool fails or does not exist, and still answers', async () => {
    const palId = await insertPal(t, { definition: { layers: { mcp: { connectors: [connectorId] } } } });
    llm.script.push(
      {
        toolCalls: [
          { id: 'call_x', name: 'launch_rocket', arguments: '{}' },
          { id: 'call_y', name: 'add', arguments: '{"a":' },
        ],
      },
      ['Sorry, I could not do that.'],
    );
    const { client, requests } = await talk(palId, 'Launch a rocket.');
    await client.waitForEvent('conversation.utterance', replica('Sorry, I could not do that.'));
    const [first, second] = requests();
    assert.deepEqual(
      first!.body.tools.map((x: { function: { name: string } }) => x.function.name).sort(),
      ['add', 'get_weather', 'ping'],
      'no scope: every tool',
    );
    const results = second!.body.messages.filter((m: { role: string }) => m.role === 'tool');
    assert.deepEqual(
      results.map((m: { tool_call_id: string }) => m.tool_call_id),
      ['call_x', 'call_y'],
    );
    assert.match(results[0].content, /^Error: There is no tool named launch_rocket/);
    assert.match(results[1].content, /^Error: The arguments were not valid JSON/);
    client.close();
  });

  it('a changed server_url takes effect on the next conversation; a PAL without connectors offers no tools', async () => {
    const palId = await insertPal(t, {
      definition: { layers: { mcp: { connectors: [connectorId], connector_tools: { [connectorId]: ['ping'] } } } },
    });
    assert.equal((await t.api('PATCH', `/v2/connectors/${connectorId}`, { server_url: moved.url })).status, 200);
    llm.script.push({ toolCalls: [{ id: 'call_p', name: 'ping', arguments: '{}' }] }, ['The server said pong.']);
    const seen = moved.seenTokens.length;
    const { client } = await talk(palId, 'Ping the server.');
    await client.waitForEvent('conversation.utterance', replica('The server said pong.'));
    assert.ok(moved.seenTokens.length > seen, 'the tools were listed and called at the new address');
    client.close();

    const plain = await insertPal(t);
    llm.script.push(['Hello there.']);
    const other = await talk(plain, 'Hello?');
    await other.client.waitForEvent('conversation.utterance', replica('Hello there.'));
    assert.equal(other.requests()[0]!.body.tools, undefined);
    other.client.close();
  });
});

describe('objectives in conversations', () => {
  let t: TestService;
  let llm: FakeLlm;
  let mcp: McpTestServer;
  let receiver: CallbackReceiver;

  before(async () => {
    llm = await startFakeLlm();
    mcp = await startMcpTestServer((token) => token === 'tok-book', {}, { booking: true });
    receiver = await startCallbackReceiver();
    t = await startListeningService({ PALKIT_LLM_BASE_URL: llm.baseUrl, PALKIT_PAL_WORDS_PER_MINUTE: '1200' });
  });
  after(async () => {
    await t.close();
    await Promise.all([llm.close(), mcp.close(), receiver.close()]);
  });

  it('the model records objective values from what the visitor said and from a tool result; the objective completes once', async () => {
    const connector = (
      await t.api('POST', '/v2/connectors', { name: 'Tables', server_url: mcp.url, auth_config: { type: 'bearer', token: 'tok-book' } })
    ).body.connector_id;
    const objectives = await t.api('POST', '/v2/objectives', {
      data: [
        {
          objective_name: 'reservation',
          objective_prompt: 'Book a table for the visitor',
          output_variables: ['guest_email', 'booking_id'],
          callback_url: receiver.url,
        },
      ],
    });
    assert.equal(objectives.status, 200, JSON.stringify(objectives.body));
    const palId = await insertPal(t, {
      definition: {
        objectives_id: objectives.body.objectives_id,
        layers: { mcp: { connectors: [connector], connector_tools: { [connector]: ['book_table'] } } },
      },
    });
    const room = await insertConversation(t, { palId, customGreeting: 'Hi.' });
    const client = await RoomClient.join(room.conversationUrl, room.token, 'Dana');
    await client.waitForEvent('conversation.utterance', (m) => m.properties.role === 'replica' && m.properties.speech === 'Hi.');

    llm.script.push(
      { toolCalls: [{ id: 'call_o1', name: 'record_objective_values', arguments: '{"guest_email":"dana@example.com","shoe_size":44}' }] },
      ['Thanks, noted.'],
    );
    const before = llm.requests.length;
    client.say('conversation.respond', { text: 'My email is dana@example.com.' });
    await client.waitForEvent('conversation.utterance', (m) => m.properties.speech === 'Thanks, noted.');
    const offered = llm.requests[before]!.body.tools.map((x: { function: { name: string } }) => x.function.name).sort();
    assert.deepEqual(offered, ['book_table', 'record_objective_values']);
    const recordTool = llm.requests[before]!.body.tools.find(
      (x: { function: { name: string } }) => x.function.name === 'record_objective_values',
    );
    assert.match(recordTool.function.description, /reservation: Book a table for the visitor \(captures guest_email, booking_id\)/);
    assert.match(llm.requests[before + 1]!.body.messages.at(-1).content, /Still open: reservation \(missing booking_id\)/);
    let progress = (await t.api('GET', `/v2/conversations/${room.conversationId}/objectives`)).body.data;
    assert.deepEqual(progress, [
      { objective_name: 'reservation', output_variables: { guest_email: 'dana@example.com' }, completed: false },
    ]);

    llm.script.push({ toolCalls: [{ id: 'call_b1', name: 'book_table', arguments: '{"name":"Dana"}' }] }, ['Your table is booked.']);
    client.say('conversation.respond', { text: 'Book me a table, please.' });
    await client.waitForEvent('conversation.utterance', (m) => m.properties.speech === 'Your table is booked.');
    progress = (await t.api('GET', `/v2/conversations/${room.conversationId}/objectives`)).body.data;
    assert.deepEqual(progress, [
      { objective_name: 'reservation', output_variables: { guest_email: 'dana@example.com', booking_id: 'bk-dana' }, completed: true },
    ]);
    await receiver.waitFor((b) => b.some((x) => x.objective_name === 'reservation'));
    const callback = receiver.bodies.filter((x) => x.objective_name === 'reservation');
    assert.deepEqual(callback, [
      {
        conversation_id: room.conversationId,
        objective_name: 'reservation',
        output_variables: { guest_email: 'dana@example.com', booking_id: 'bk-dana' },
      },
    ]);
    client.close();
  });
});
