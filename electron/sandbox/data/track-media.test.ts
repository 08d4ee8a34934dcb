import { expect, it } from 'vitest';
import { findTrack } from '../../../shared/catalogue/tracks';
import { trackMedia } from './track-media';

it('describes a track preview as 30 s of stereo music in the track’s mood', () => {
  expect(trackMedia(findTrack(20)!, 'mp3')).toEqual({
    kind: 'track',
    seed: 'track-20',
    style: 'casual',
    seconds: 30,
    channels: 2,
    format: 'mp3',
  });
});
