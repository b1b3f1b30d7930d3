/*
 * palkit's bridge to libespeak-ng: synthesises one text per input line and writes the samples together
 * with the synthesiser's own word and phoneme timing, which the espeak-ng command line does not give.
 *
 * Input, one request per line:  <id> TAB <voice> TAB <words per minute> TAB <text> NEWLINE
 * Output, binary frames:        <type:u8> <id:u32 LE> <length:u32 LE> <payload>
 *   1 audio    16-bit mono samples (LE)
 *   2 word     audio position ms (u32), text position in characters from 1 (u32), length in characters (u32)
 *   3 phoneme  audio position ms (u32), eSpeak phoneme mnemonic (8 bytes, NUL padded)
 *   4 end      sample rate (u32)
 *   5 error    message (UTF-8)
 *   6 ready    sample rate (u32), once at start with id 0
 *
 * SIGUSR1 cancels the text being synthesised (its end frame follows at once); it is installed before
 * the ready frame, and a cancel that arrives between texts is forgotten when the next line is read.
 */
#include <espeak-ng/speak_lib.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t current_id = 0;
static volatile sig_atomic_t cancelled = 0;

static void on_cancel(int signal_number) {
  (void)signal_number;
  cancelled = 1;
}

static void frame(uint8_t type, const void *payload, uint32_t length) {
  uint8_t header[9];
  header[0] = type;
  memcpy(header + 1, &current_id, 4);
  memcpy(header + 5, &length, 4);
  fwrite(header, 1, sizeof header, stdout);
  if (length) fwrite(payload, 1, length, stdout);
}

static int on_synth(short *wav, int samples, espeak_EVENT *events) {
  if (cancelled) return 1; /* stops this text: nobody is listening any more */
  if (wav && samples > 0) frame(1, wav, (uint32_t)samples * 2);
  for (espeak_EVENT *e = events; e && e->type != espeakEVENT_LIST_TERMINATED; e++) {
    if (e->type == espeakEVENT_WORD) {
      uint32_t word[3] = {(uint32_t)e->audio_position, (uint32_t)e->text_position, (uint32_t)e->length};
      frame(2, word, sizeof word);
    } else if (e->type == espeakEVENT_PHONEME) {
      uint8_t phoneme[12] = {0};
      uint32_t at = (uint32_t)e->audio_position;
      memcpy(phoneme, &at, 4);
      memcpy(phoneme + 4, e->id.string, 8);
      frame(3, phoneme, sizeof phoneme);
    }
  }
  return 0;
}

static void fail(const char *message) {
  frame(5, message, (uint32_t)strlen(message));
  fflush(stdout);
}

int main(void) {
  struct sigaction cancel;
  memset(&cancel, 0, sizeof cancel);
  cancel.sa_handler = on_cancel;
  cancel.sa_flags = SA_RESTART;
  sigaction(SIGUSR1, &cancel, NULL);
  int rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 100, NULL, espeakINITIALIZE_PHONEME_EVENTS);
  if (rate <= 0) {
    fprintf(stderr, "palkit-espeak: espeak-ng could not start\n");
    return 1;
  }
  espeak_SetSynthCallback(on_synth);
  uint32_t ready_rate = (uint32_t)rate;
  frame(6, &ready_rate, 4);
  fflush(stdout);
  char *line = NULL;
  size_t capacity = 0;
  char voice[64] = "";
  while (getline(&line, &capacity, stdin) > 0) {
    line[strcspn(line, "\n")] = 0;
    cancelled = 0;
    char *id = strtok(line, "\t"), *name = strtok(NULL, "\t"), *wpm = strtok(NULL, "\t"), *text = strtok(NULL, "");
    if (!id) continue;
    current_id = (uint32_t)strtoul(id, NULL, 10);
    /* Every request gets an answer, so a malformed one (an empty text) never leaves its caller waiting. */
    if (!name || !wpm || !text) {
      fail("malformed request");
      continue;
    }
    if (strcmp(voice, name) != 0) {
      if (espeak_SetVoiceByName(name) != EE_OK) {
        fail("unknown voice");
        continue;
      }
      snprintf(voice, sizeof voice, "%s", name);
    }
    espeak_SetParameter(espeakRATE, atoi(wpm), 0);
    if (espeak_Synth(text, strlen(text) + 1, 0, POS_CHARACTER, 0, espeakCHARS_UTF8, NULL, NULL) != EE_OK) {
      fail("synthesis failed");
      continue;
    }
    uint32_t sample_rate = (uint32_t)rate;
    frame(4, &sample_rate, 4);
    fflush(stdout);
  }
  free(line);
  espeak_Terminate();
  return 0;
}
