import type { Locator, Page } from 'playwright-core';

/** The projects list (ProjectsView.vue): virtualized rows, title search, category filter. */
export class ProjectsPage {
  readonly root: Locator;
  readonly search: Locator;
  readonly category: Locator;
  readonly count: Locator;
  readonly rows: Locator;
  readonly scroller: Locator;
  readonly skeleton: Locator;
  readonly empty: Locator;
  readonly emptyFiltered: Locator;
  readonly error: Locator;
  readonly newProject: Locator;
  /** "The list as last loaded" while the service does not answer. */
  readonly offline: Locator;
  /** Nothing of this profile loaded and its service does not answer. */
  readonly unreachable: Locator;
  readonly reviewFilterGroup: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('projects-view');
    this.search = page.getByTestId('projects-search');
    this.category = page.getByTestId('projects-category');
    this.count = page.getByTestId('projects-count');
    this.rows = page.getByTestId('project-row');
    this.scroller = page.getByTestId('projects-scroller');
    this.skeleton = page.getByTestId('projects-skeleton');
    this.empty = page.getByTestId('projects-empty');
    this.emptyFiltered = page.getByTestId('projects-empty-filtered');
    this.error = page.getByTestId('projects-error');
    this.newProject = page.getByTestId('projects-new');
    this.offline = page.getByTestId('projects-offline');
    this.unreachable = page.getByTestId('projects-unreachable');
    this.reviewFilterGroup = page.getByTestId('review-filter');
  }

  async goto(): Promise<void> {
    await this.page.getByTestId('nav-projects').click();
    await this.root.waitFor();
  }

  /** The row of a project by id (only rendered while scrolled into view). */
  row(projectId: string): Locator {
    return this.page.locator(`[data-testid="project-row"][data-project-id="${projectId}"]`);
  }

  rowByTitle(title: string): Locator {
    return this.rows.filter({ hasText: title });
  }

  /** The review-status filter button ('all', 'needs-review', 'in-revision', 'waiting', 'approved', 'canceled'). */
  reviewFilter(state: string): Locator {
    return this.page.getByTestId(`review-filter-${state}`);
  }

  /** The review cell of a project's row ("2 ready for review"). */
  review(projectId: string): Locator {
    return this.row(projectId).getByTestId('project-review');
  }

  async searchTitle(text: string): Promise<void> {
    await this.search.fill(text);
  }

  async filterCategory(categoryId: string): Promise<void> {
    await this.category.selectOption(categoryId);
  }

  async open(title: string): Promise<void> {
    await this.rowByTitle(title).first().getByRole('link').click();
  }

  async scrollToBottom(): Promise<void> {
    await this.scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  }

  /** Duration of the 'projects-first-render' measure, or null when it was not taken yet. */
  async firstRenderMs(): Promise<number | null> {
    return this.page.evaluate(() => {
      const entries = performance.getEntriesByName('projects-first-render', 'measure');
      return entries.length ? entries[entries.length - 1]!.duration : null;
    });
  }
}
