import { describe, expect, it } from 'vitest';
import { validateCreateProject } from './validate-project';

describe('prototype keys index nothing (issue 13, item 8)', () => {
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])(
    'a mainService %s that a caller authorized is a category without a service set, not a crash',
    (mainService) => {
      const body = {
        title: 'Spot',
        mainService,
        services: [
          { subCategory: 'voice_over', language: 'eng-us', genderAndAge: 'teenageGirl', script: 'Hi.' },
        ],
      };
      const run = () => validateCreateProject(body, { authorizedMainServices: new Set([mainService]) });
      expect(run).not.toThrow();
      expect(run()).toEqual([]);
    },
  );
});
