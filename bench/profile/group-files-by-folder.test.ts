import { describe, expect, it } from 'vitest';
import { groupFilesByFolder } from './group-files-by-folder.js';

describe('groupFilesByFolder', () => {
  it('groups paths by folder, folders and names sorted, root files under "."', () => {
    expect(
      groupFilesByFolder([
        'gateway/stages/forward/forward-upstream.ts',
        'gateway/app.ts',
        'store/memory-store.ts',
        'gateway/stages/admit/admit-request.ts',
        'gateway/stages/admit/admission-hook.ts',
        'root.ts',
      ]),
    ).toEqual({
      '.': ['root.ts'],
      gateway: ['app.ts'],
      'gateway/stages/admit': ['admission-hook.ts', 'admit-request.ts'],
      'gateway/stages/forward': ['forward-upstream.ts'],
      store: ['memory-store.ts'],
    });
  });
});
