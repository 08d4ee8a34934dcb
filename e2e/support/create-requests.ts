// Watching the form's orders: specs that check an order is sent once, or not at all, count its create calls.
import type { Page } from '@playwright/test';

/** The create calls the page makes from now on (main's `projects.create` bridge route), as their URLs. */
export function watchCreateRequests(app: Page): string[] {
  const creates: string[] = [];
  app.on('request', (request) => {
    if (request.url().includes('/ipc/projects.create')) creates.push(request.url());
  });
  return creates;
}
