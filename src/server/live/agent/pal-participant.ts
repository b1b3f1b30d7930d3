// The PAL as the room lists it among the participants: its name and its face, a trained face's files
// linked with a token bound to this conversation (media/access.ts).
import type { Participant } from '../../../protocol/room.js';
import type { ServiceDeps } from '../../platform/context.js';
import { conversationFaceLink, type LiveConversation } from '../../resources/conversations/live-conversation.js';
import { faceMediaLink } from '../../resources/faces/media-url.js';

export function palParticipant(deps: ServiceDeps, conv: LiveConversation): Participant {
  const faceLink = conversationFaceLink(deps.secrets, conv, deps.clock.now());
  return {
    participant_id: `pal_${conv.pal.palId}`,
    user_name: conv.pal.name,
    role: 'pal',
    video_url: faceMediaLink(deps.config.publicUrl, conv.face.videoUrl, faceLink),
    image_url: faceMediaLink(deps.config.publicUrl, conv.face.imageUrl, faceLink),
    ...(conv.face.model ? { face_model: conv.face.model } : {}),
    ...(conv.face.rigUrl ? { face_rig_url: faceMediaLink(deps.config.publicUrl, conv.face.rigUrl, faceLink) ?? conv.face.rigUrl } : {}),
  };
}
