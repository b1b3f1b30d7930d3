// Stand-in ConversationLink for in-call element tests: records what the element sends and posts, and
// lets a test deliver room messages or make the next posts fail.
import { LinkMessageEvent, type CanvasInteractionBody, type ConversationLink } from '../../../src/palkit/client/link.js';

export class FakeLink extends EventTarget implements ConversationLink {
  readonly conversationId = 'c_test';
  readonly sent: Array<Parameters<ConversationLink['send']>[0]> = [];
  readonly posted: CanvasInteractionBody[] = [];
  /** Number of upcoming posts that reject. */
  failNextPosts = 0;

  send(message: Parameters<ConversationLink['send']>[0]): void {
    this.sent.push(message);
  }

  async postCanvasInteraction(body: CanvasInteractionBody): Promise<void> {
    if (this.failNextPosts > 0) {
      this.failNextPosts--;
      throw new Error('network down');
    }
    this.posted.push(structuredClone(body));
  }

  /** Deliver one raw app-message from the room. */
  deliver(message: unknown): void {
    this.dispatchEvent(new LinkMessageEvent(message));
  }

  /** Deliver a well-formed `conversation.*` message. */
  event(eventType: string, properties: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): void {
    this.deliver({ message_type: 'conversation', event_type: eventType, conversation_id: this.conversationId, properties, ...extra });
  }

  toolCall(name: string, args: unknown, toolCallId: string): void {
    this.event('conversation.tool_call', {
      name,
      arguments: typeof args === 'string' ? args : JSON.stringify(args),
      tool_call_id: toolCallId,
    });
  }
}

export const nextFrame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));
