// Deliver a voice over and open its first take's review, waveform drawn: how most review specs begin.
import type { Page } from '@playwright/test';
import type { SandboxControl, Session } from '../fixtures';
import { ReviewPage } from '../pages/review-page';
import { deliveredVoiceOver, type DeliverableInfo, type ProjectInfo, type VoiceOverOptions } from './setup';

/** A delivered voice over with the review of its first take open and its waveform drawn. */
export interface OpenReview {
  project: ProjectInfo;
  deliverables: DeliverableInfo[];
  review: ReviewPage;
}

/** Orders a voice over on the service, has it delivered, and opens the review of its first take. */
export async function openDeliveredReview(
  app: Page,
  sandbox: SandboxControl,
  session: Pick<Session, 'appUrl'>,
  options: VoiceOverOptions,
): Promise<OpenReview> {
  const { project, deliverables } = await deliveredVoiceOver(sandbox, options);
  const review = new ReviewPage(app);
  await review.goto(session.appUrl, deliverables[0]!.id, project.id);
  await review.waitForWaveform();
  return { project, deliverables, review };
}
