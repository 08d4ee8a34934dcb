// @vitest-environment happy-dom
/**
 * Walks every form and IPC input that builds a request body, as a live account sees it, and fails when one could
 * carry a value the live-values table marks `sandbox-only` (or does not list), pre-select a fee-bearing reason, or
 * refuse the request on a sandbox bound. A new IPC channel must be sorted below before this passes.
 */
import { describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import type { AccountKind } from '../../shared/api/account-kind';
import {
  LIVE_VALUES,
  isSandboxOnly,
  sandboxValuesIn,
  searchCurrenciesFor,
  type LiveRequest,
} from '../../shared/api/live-values';
import { cancelFeePercent } from '../../shared/api/reasons';
import { FULFILLMENT_TYPES, UNIT_TYPES } from '../../shared/api/schemas';
import { validateCreateProject, validateQuote } from '../../shared/api/validate-project';
import { CHANNELS, type Channel } from '../../shared/ipc/channels';
import CancelProjectFields from './components/CancelProjectFields.vue';
import { mountRejectDialog } from './components/review/reject-dialog.test-util';
import RevisionForm from './components/review/RevisionForm.vue';
import {
  buildBody,
  buildQuoteBody,
  emptyForm,
  type MusicMode,
  type ProjectForm,
} from './components/project-form/project-form';
import { defaultSampleFilters, searchInput } from './stores/samples';

const LIVE: AccountKind = 'service';

/**
 * Each IPC channel: the live request it builds (walked below), or why it carries no value of the table (ids, the
 * producer's own words, reads, local work). A channel missing here fails the first test.
 */
const LOCAL = 'none: no request to the service';
const READ = 'none: a read, by id or page';
const CHANNEL_REQUESTS: Record<Channel, LiveRequest | `none: ${string}`> = {
  'projects.create': 'create',
  'projects.quote': 'create',
  'projects.cancel': 'cancel',
  'deliverables.reject': 'reject',
  'revisions.create': 'revision',
  'samples.search': 'search',
  'deliverables.approve': 'none: a fixed status, approved',
  'deliverables.approveAll': 'none: a fixed status, approved',
  'deliverables.selectWinner': 'none: a fixed status, winner',
  'projects.list': 'none: page, size and the title the producer typed',
  'projects.findRecent': 'none: a title',
  'profiles.add': 'none: sign-in details the producer typed',
  'profiles.signIn': 'none: sign-in details the producer typed',
  'profiles.renew': 'none: sign-in details the producer typed',
  'outbox.retry': 'none: sends again a decision built by the forms walked here',
  'outbox.send': 'none: sends again a decision built by the forms walked here',
  'projects.get': READ,
  'projects.review': LOCAL,
  'projects.nextReady': LOCAL,
  'deliverables.list': READ,
  'deliverables.get': READ,
  'revisions.versions': READ,
  'catalog.categories': READ,
  'catalog.attributes': READ,
  'catalog.attributeValues': READ,
  'catalog.tracks': READ,
  'app.info': LOCAL,
  'app.notices': LOCAL,
  'profiles.list': LOCAL,
  'profiles.activate': LOCAL,
  'profiles.remove': LOCAL,
  'sandbox.restart': LOCAL,
  'media.remoteUrl': LOCAL,
  'media.libraryUrl': LOCAL,
  'downloads.start': 'none: downloads a file by its URL',
  'downloads.startProject': 'none: downloads files by their URLs',
  'downloads.list': LOCAL,
  'downloads.pause': LOCAL,
  'downloads.resume': LOCAL,
  'downloads.cancel': LOCAL,
  'downloads.livePeaks': LOCAL,
  'library.list': LOCAL,
  'library.remove': LOCAL,
  'library.reveal': LOCAL,
  'library.startDrag': LOCAL,
  'library.peaks': LOCAL,
  'settings.get': LOCAL,
  'settings.set': LOCAL,
  'audio.analyze': LOCAL,
  'audio.qa': LOCAL,
  'qa.targets': LOCAL,
  'qa.setTarget': LOCAL,
  'watcher.status': LOCAL,
  'watcher.project': LOCAL,
  'watcher.checkNow': LOCAL,
  'watcher.attend': LOCAL,
  'updates.status': LOCAL,
  'updates.check': LOCAL,
  'updates.install': LOCAL,
  'outbox.list': LOCAL,
  'outbox.pending': LOCAL,
  'outbox.discard': LOCAL,
};

function options(wrapper: VueWrapper, testid: string): string[] {
  return wrapper
    .findAll(`[data-testid="${testid}"] option`)
    .map((o) => (o.element as HTMLOptionElement).value);
}

describe('every request a live account can be sent', () => {
  it('sorts every IPC channel: a request it builds is walked here, or it carries no table value', () => {
    expect(CHANNELS.filter((name) => !(name in CHANNEL_REQUESTS))).toEqual([]);
  });

  it('reject: every code the dialog offers, with the new voice it asks for', async () => {
    const wrapper = mountRejectDialog(LIVE);
    const codes = options(wrapper, 'reject-code');
    for (const code of codes) {
      await wrapper.get('[data-testid="reject-reason"]').setValue('Not what we asked for.');
      await wrapper.get('[data-testid="reject-code"]').setValue(code);
      const voice = wrapper.find('[data-testid="reject-gender-age"]');
      if (voice.exists()) await voice.setValue('teenageGirl');
      await wrapper.get('form').trigger('submit');
    }
    const sent = (wrapper.emitted('confirm') ?? []).map(([input]) => ({ status: 'rejected', ...input }));
    expect(sent).toHaveLength(codes.length);
    for (const body of sent) expect(sandboxValuesIn('reject', body)).toEqual([]);
    wrapper.unmount();
  });

  it('cancel: every main and sub code the fields offer; none pre-selected carries a fee', async () => {
    const wrapper = mount(CancelProjectFields, {
      props: { accountKind: LIVE, inReview: true, projectPrice: 100 },
      attachTo: document.body,
    });
    const preselected = wrapper.get<HTMLSelectElement>('[data-testid="cancel-reason-main"]').element.value;
    expect(preselected === '' || cancelFeePercent(preselected, true) === 0).toBe(true);
    const sent: string[] = [];
    for (const main of options(wrapper, 'cancel-reason-main').filter(Boolean)) {
      await wrapper.get('[data-testid="cancel-reason-main"]').setValue(main);
      sent.push(main);
      if (wrapper.find('[data-testid="cancel-reason-sub"]').exists())
        sent.push(...options(wrapper, 'cancel-reason-sub').filter(Boolean));
    }
    expect(sent.length).toBeGreaterThan(5);
    for (const reasonCode of sent)
      expect(sandboxValuesIn('cancel', { status: 'canceled', reason: '', reasonCode })).toEqual([]);
    wrapper.unmount();
  });

  it.each([
    [false, 'voice_over'],
    [true, 'voice_over'],
    [true, 'scriptwriting'],
    [true, 'post-production'],
  ])('revision (audio ads %s, %s): every code and reason the form offers', async (isAudioAds, service) => {
    const wrapper = mount(RevisionForm, {
      props: {
        accountKind: LIVE,
        busy: false,
        error: null,
        isAudioAds,
        serviceSubCategory: service,
        serviceCost: 10,
      },
      attachTo: document.body,
    });
    const reasons = isAudioAds ? options(wrapper, 'revision-reason') : [''];
    for (const code of options(wrapper, 'revision-code')) {
      for (const reason of reasons) {
        await wrapper.get('[data-testid="revision-instructions"]').setValue('Slower, please.');
        await wrapper.get('[data-testid="revision-code"]').setValue(code);
        if (isAudioAds) await wrapper.get('[data-testid="revision-reason"]').setValue(reason);
        for (const check of [false, true]) {
          await wrapper.get('[data-testid="revision-check-talent"]').setValue(check);
          await wrapper.get('form').trigger('submit');
        }
      }
    }
    const sent = (wrapper.emitted('submit') ?? []).map(([input]) => input as Record<string, unknown>);
    expect(sent.length).toBeGreaterThan(0);
    for (const body of sent) expect(sandboxValuesIn('revision', body)).toEqual([]);
    wrapper.unmount();
  });

  it('search: every currency the filters offer and every unit type; purpose only as a number', () => {
    const currencies = searchCurrenciesFor(LIVE);
    expect(currencies.length).toBeGreaterThan(0);
    // The store's filters may still hold a sandbox currency after a switch of profile.
    for (const currency of [...currencies, ...searchCurrenciesFor('sandbox')]) {
      for (const unitType of UNIT_TYPES) {
        for (const purpose of ['', 'radioTvAds', 'elearning', '3']) {
          const filters = { ...defaultSampleFilters(), currency, unitType, purpose };
          expect(sandboxValuesIn('search', searchInput(filters, 1, 20, LIVE))).toEqual([]);
        }
      }
    }
  });

  function forms(): ProjectForm[] {
    const all: ProjectForm[] = [];
    for (const fulfillmentType of FULFILLMENT_TYPES) {
      for (const mainService of ['voice_over', 'audio_ads'] as const) {
        for (const withScriptwriting of [true, false]) {
          for (const music of ['pro', 'library', 'own'] as MusicMode[]) {
            const form = emptyForm();
            Object.assign(form, { fulfillmentType, mainService, withScriptwriting, title: 'Walk' });
            form.postProduction.music = music;
            all.push(form);
          }
        }
      }
    }
    return all;
  }

  it('create and quote: every category, fulfilment and section the form builds', () => {
    for (const form of forms()) {
      expect(sandboxValuesIn('create', buildBody(form))).toEqual([]);
      expect(sandboxValuesIn('create', buildQuoteBody(form))).toEqual([]);
    }
  });

  it('create and quote: no sandbox bound refuses a live order, whatever its size', () => {
    const limits = LIVE_VALUES.filter((row) => row.field === 'create.limit');
    // A bound the live pages do not state is the sandbox's, or a rule of the interface itself, named by its code.
    for (const row of limits) expect(row.source).toMatch(/^(sandbox-only|interface:[A-Z_]+)$/);
    const past = limits.filter((row) => row.source === 'sandbox-only');
    expect(past.length).toBeGreaterThan(0);
    for (const row of past) {
      const body = bodyPast(String(row.name), Number(row.value));
      const issues = [
        ...validateCreateProject(body, { accountKind: LIVE }),
        ...validateQuote({ ...body, title: undefined }, { accountKind: LIVE }),
      ];
      expect(issues.filter((issue) => /limit|at most|longer than/i.test(issue.message))).toEqual([]);
      // The same body on the sandbox meets the bound: the walk really crossed it.
      expect(validateCreateProject(body, { accountKind: 'sandbox' }).length).toBeGreaterThan(0);
    }
  });

  it('the table offers no sandbox-only value as documented', () => {
    for (const row of LIVE_VALUES) {
      if (row.source === 'sandbox-only' && row.field !== 'create.limit' && row.name === undefined)
        expect(isSandboxOnly(row.field, row.value)).toBe(true);
      if (row.source !== 'sandbox-only')
        expect(row.source).toMatch(/^(docs:[a-z]|https:\/\/|interface:[A-Z])/);
    }
  });
});

/** A create body one past a sandbox bound; a bound without a builder here fails the walk. */
function bodyPast(limit: string, bound: number): Record<string, unknown> {
  const voiceOver = (script: unknown) => ({
    title: 'Long order',
    mainService: 'voice_over',
    services: [{ subCategory: 'voice_over', language: 'eng-us', genderAndAge: 'teenageGirl', script }],
  });
  switch (limit) {
    case 'maxSeconds':
      return {
        title: 'Long ad',
        mainService: 'audio_ads',
        services: [
          { subCategory: 'voice_over', language: 'eng-us', genderAndAge: 'teenageGirl' },
          { subCategory: 'post-production', seconds: bound + 1 },
        ],
      };
    case 'maxServices':
      return {
        title: 'Many services',
        mainService: 'audio_ads',
        services: Array.from({ length: bound + 1 }, () => ({ subCategory: 'post-production', seconds: 30 })),
      };
    case 'maxScriptParts':
      return voiceOver(Array.from({ length: bound + 1 }, (_, i) => ({ [`part${i + 1}`]: 'Chapter.' })));
    case 'maxScriptWords':
      return voiceOver('word '.repeat(bound + 1));
    case 'maxScriptCharacters':
      return {
        ...voiceOver('語'.repeat(bound + 1)),
        services: [
          {
            subCategory: 'voice_over',
            language: 'jpn-jp',
            genderAndAge: 'teenageGirl',
            script: '語'.repeat(bound + 1),
          },
        ],
      };
    default:
      throw new Error(`No walk for the sandbox bound ${limit}: add one to bodyPast.`);
  }
}
