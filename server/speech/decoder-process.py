"""
The local speech engine's long-lived process (server/src/ai/speech-process.ts drives it).

pocketsphinx_continuous reloads its models for every part it is given. This process loads them once, decodes one
warm-up clip, and then decodes each part in a copy-on-write fork of itself: the models are not loaded again, and
every part starts from the same state (the live cepstral normalisation adapts to what it hears), so no part's
audio, from this consultation or another, changes how the next one is read, and the same part always gives the
same words. A part that crashes its decoder takes only its fork down.

Protocol, on standard input: a job line (`decode`, `decode-timed` or `warm-up`), then the job's audio as 16 kHz
mono 16-bit PCM in frames (a 4-byte little-endian length, then that many bytes), ended by a frame of length 0.
On standard output: `{"ready": true}` once the models are loaded, then one JSON line per job: `{"out": text}` in
pocketsphinx_continuous's own format (one line per utterance, with `word start end confidence` lines after it
for a timed job), or `{"error": message}`, after which this process exits.

The decoding loop is pocketsphinx_continuous's recognize_from_file: 2048 samples at a time, an utterance ended
wherever the voice activity detector hears silence after speech.
"""
import json
import os
import struct
import sys

from pocketsphinx import Decoder

CHUNK_BYTES = 2048 * 2
# The server sends ffmpeg's output as it comes, in pieces of tens of kilobytes: a larger length means the stream
# is out of step (it is then refused, not read).
MAX_FRAME_BYTES = 1 << 20
BOOLEAN_OPTIONS = {'-mmap', '-time', '-bestpath', '-fwdflat'}


def read_exact(n):
    parts = []
    while n > 0:
        got = os.read(0, min(n, 1 << 20))
        if not got:
            raise EOFError('the server closed the audio stream')
        parts.append(got)
        n -= len(got)
    return b''.join(parts)


def read_job_line():
    # Byte by byte, unbuffered: the fork reads the audio from the same descriptor, so nothing may be read ahead.
    line = b''
    while True:
        c = os.read(0, 1)
        if not c:
            return None
        if c == b'\n':
            return line.decode('ascii', 'replace')
        line += c


def reply(message):
    os.write(1, (json.dumps(message) + '\n').encode())


def decode(decoder, frame_rate, timed):
    logmath = decoder.get_logmath()
    lines = []

    def utterance_done():
        hyp = decoder.hyp()
        if hyp is None:
            return
        lines.append(hyp.hypstr)
        if timed:
            for seg in decoder.seg():
                lines.append('%s %.3f %.3f %f' % (seg.word, seg.start_frame / frame_rate, seg.end_frame / frame_rate, logmath.exp(seg.prob)))

    in_utterance = False

    def process(samples):
        nonlocal in_utterance
        decoder.process_raw(samples, False, False)
        speaking = decoder.get_in_speech()
        if speaking and not in_utterance:
            in_utterance = True
        if not speaking and in_utterance:
            decoder.end_utt()
            utterance_done()
            decoder.start_utt()
            in_utterance = False

    decoder.start_stream()
    decoder.start_utt()
    pending = b''
    while True:
        (size,) = struct.unpack('<I', read_exact(4))
        if size == 0:
            break
        if size > MAX_FRAME_BYTES:
            raise ValueError('frame too large: the audio stream is out of step')
        pending += read_exact(size)
        whole = len(pending) - len(pending) % CHUNK_BYTES
        for start in range(0, whole, CHUNK_BYTES):
            process(pending[start:start + CHUNK_BYTES])
        pending = pending[whole:]
    if pending:
        process(pending)
    decoder.end_utt()
    if in_utterance:
        utterance_done()
    return '\n'.join(lines)


def main():
    config = Decoder.default_config()
    args = sys.argv[1:]
    for name, value in zip(args[0::2], args[1::2]):
        if name in BOOLEAN_OPTIONS:
            config.set_boolean(name, value == 'yes')
        else:
            config.set_string(name, value)
    decoder = Decoder(config)
    frame_rate = config.get_int('-frate')
    reply({'ready': True})
    while True:
        job = read_job_line()
        if job is None:
            return
        if job == 'warm-up':
            # In this process itself: what the first decode sets up (and its normalisation) is what every fork starts from.
            reply({'out': decode(decoder, frame_rate, False)})
            continue
        if job not in ('decode', 'decode-timed'):
            reply({'error': 'unknown job'})
            return
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                reply({'out': decode(decoder, frame_rate, job == 'decode-timed')})
            except BaseException as e:  # noqa: B036 - the fork must never return into the serving loop
                sys.stderr.write('decode failed: %s\n' % type(e).__name__)
                code = 3
            os._exit(code)
        _, status = os.waitpid(pid, 0)
        if status != 0:
            # The fork may have stopped in the middle of the audio frames: the stream cannot be followed any more.
            reply({'error': 'the decoder stopped (status %d)' % status})
            return


if __name__ == '__main__':
    main()
