import { NGSS_PRACTICES_TEMPLATE } from '#schemas/rubricTemplates';
import { rubricRepository } from '../repositories/rubricRepository.ts';
import { scoreRepository } from '../repositories/scoreRepository.ts';
import { json } from '../repositories/sql.ts';
import { hashPassword } from '../security/passwords.ts';
import type { Db, Queryable } from './client.ts';
import { BASIC_TEMPLATE } from './template.ts';
import type { Responses, Structure } from '#schemas/structure';

/** The demo password of every demo account (architecture §6). */
export const DEMO_PASSWORD = 'spiral-demo';

/** The demo accounts (architecture §6). */
export const DEMO_ACCOUNTS = [
  { email: 'researcher@example.org', username: 'Rita Researcher', roleId: 4, roleName: 'Researcher' },
  { email: 'lead@example.org', username: 'Lee Lead', roleId: 3, roleName: 'PLC Lead' },
  { email: 'teacher@example.org', username: 'Tess Teacher', roleId: 1, roleName: 'Teacher' },
  { email: 'teacher2@example.org', username: 'Theo Teacher', roleId: 1, roleName: 'Teacher' },
] as const;

const TEAM_QUESTION = {
  key: 'team-bridge-grade-levels',
  text: 'How could a teacher in another grade use this idea?',
  type: 'longText',
  bonus: true,
} as const;

const daysAgo = (days: number, hour = 10) => {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() - days);
  d.setUTCHours(hour, 0, 0, 0);
  return d.toISOString();
};

async function insertId(tx: Queryable, sql: string, params: unknown[]): Promise<number> {
  const { rows } = await tx.query<{ id: number }>(sql, params);
  return rows[0]!.id;
}

/**
 * Fills an empty database with a living example: the demo accounts, portfolios with completed
 * and parking-lot artifacts, a shared portfolio with copied artifacts, comments and reactions,
 * and a pending invitation. Images are added by the media seed when uploads exist.
 */
export async function seedDemo(db: Db): Promise<void> {
  const hash = await hashPassword(DEMO_PASSWORD);
  await db.transaction(async (tx) => {
    const ids: Record<string, number> = {};
    for (const a of DEMO_ACCOUNTS) {
      ids[a.email] = await insertId(
        tx,
        `INSERT INTO users (username, email, role_id, password_hash, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5) RETURNING id`,
        [a.username, a.email, a.roleId, hash, daysAgo(60)],
      );
    }
    const tess = ids['teacher@example.org']!;
    const theo = ids['teacher2@example.org']!;
    const lee = ids['lead@example.org']!;

    const portfolio = (owner: number, name: string, grades: string[], subject: string, topic: string, age: number) =>
      insertId(
        tx,
        `INSERT INTO portfolios (owner_id, name, grades, subject, topic, structure, created_at, updated_at)
         VALUES ($1, $2, $3::jsonb, $4, $5, $6::jsonb, $7, $7) RETURNING id`,
        [owner, name, json(grades), subject, topic, json(BASIC_TEMPLATE), daysAgo(age)],
      );
    const artifact = (portfolioId: number, responses: Responses, parkingLot: boolean, age: number) =>
      insertId(
        tx,
        `INSERT INTO artifacts (portfolio_id, structure, responses, parking_lot, created_at, updated_at)
         VALUES ($1, $2::jsonb, $3::jsonb, $4, $5, $5) RETURNING id`,
        [portfolioId, json(BASIC_TEMPLATE), json(responses), parkingLot, daysAgo(age)],
      );

    const forces = await portfolio(
      tess,
      'Forces and Motion',
      ['5th'],
      'Science',
      'Pushes, pulls and balanced forces',
      40,
    );
    await portfolio(tess, 'My Portfolio 1', [], 'Science', '', 58);
    const ecosystems = await portfolio(theo, 'Ecosystems Unit', ['7th'], 'Science', 'Food webs and energy flow', 35);
    const leeNotebook = await portfolio(
      lee,
      'Engineering Design Lab',
      ['6th', '7th', '8th'],
      'Science',
      'Design challenges',
      30,
    );

    const ramp = await artifact(
      forces,
      {
        artifactName: 'Ramp races: predicting speed',
        unitTiming: 'Beginning of unit',
        unitDay: 2,
        artifactCategory: ['Student work', 'Photo of an activity'],
        learningGoal: 'Students predict how the height of a ramp changes how far a car rolls, and explain why.',
        studentThinking:
          'Most groups linked a higher ramp to a faster car; a few began to talk about the push of gravity along the slope.',
        standardFrameworkTags: [
          'Planning and carrying out investigations',
          'Cause and Effect',
          'PS2.A: Forces and Motion',
        ],
        nextSteps: 'Add a measuring tape station so every group records distances the same way.',
      },
      false,
      12,
    );
    await artifact(
      forces,
      {
        artifactName: 'Balanced forces exit ticket',
        unitTiming: 'Middle of unit',
        unitDay: 6,
        artifactCategory: ['Assessment'],
        learningGoal: 'Students explain why an object stays still when the forces on it are balanced.',
        studentThinking:
          'Half the class drew arrows of equal length; the others still thought "no force" means "no motion".',
        standardFrameworkTags: ['Engaging in argument from evidence', 'PS2.A: Forces and Motion'],
      },
      false,
      5,
    );
    await artifact(forces, { artifactName: 'Tug-of-war video (to finish)', unitTiming: 'End of unit' }, true, 2);

    const foodWeb = await artifact(
      ecosystems,
      {
        artifactName: 'Food web card sort',
        unitTiming: 'Middle of unit',
        unitDay: 4,
        artifactCategory: ['Student work', 'Lesson plan or materials'],
        learningGoal: 'Students trace how energy moves from producers to consumers in a pond ecosystem.',
        studentThinking: 'Groups argued about where decomposers belong; two groups drew arrows pointing the wrong way.',
        standardFrameworkTags: [
          'Developing and using models',
          'Energy and Matter',
          'LS2.B: Cycles of Matter and Energy Transfer in Ecosystems',
        ],
        nextSteps: 'Start with a mini-lesson on what an arrow means in a food web.',
      },
      false,
      9,
    );
    await artifact(
      ecosystems,
      { artifactName: 'Field trip reflections', learningGoal: 'Connect the pond visit to our food web models.' },
      true,
      1,
    );
    await artifact(
      leeNotebook,
      {
        artifactName: 'Egg drop design brief',
        unitTiming: 'Beginning of unit',
        unitDay: 1,
        artifactCategory: ['Lesson plan or materials'],
        learningGoal: 'Students define the criteria and constraints of a design problem.',
        standardFrameworkTags: ['ETS1.A: Defining and Delimiting Engineering Problems'],
      },
      false,
      20,
    );

    const sharedStructure: Structure = [...BASIC_TEMPLATE, TEAM_QUESTION];
    const plc = await insertId(
      tx,
      `INSERT INTO shared_portfolios (owner_id, name, structure, template_structure, grades, subject, topic, plc_name, plc_goals, created_at, updated_at)
       VALUES ($1, $2, $3::jsonb, $4::jsonb, $5::jsonb, 'Science', $6, $7, $8, $9, $9) RETURNING id`,
      [
        lee,
        'Grades 5–7 Science PLC',
        json(sharedStructure),
        json(BASIC_TEMPLATE),
        json(['5th', '6th', '7th']),
        'Student thinking about models and evidence',
        'Riverside Middle Science Team',
        'Notice and build on student thinking in modelling tasks; share one artifact a month each.',
        daysAgo(25),
      ],
    );
    for (const member of [lee, tess, theo]) {
      await tx.query(`INSERT INTO shared_portfolio_members (shared_portfolio_id, user_id) VALUES ($1, $2)`, [
        plc,
        member,
      ]);
    }
    const engineering = await insertId(
      tx,
      `INSERT INTO shared_portfolios (owner_id, name, structure, template_structure, grades, subject, topic, plc_name, plc_goals, created_at, updated_at)
       VALUES ($1, 'Engineering Design Circle', $2::jsonb, $2::jsonb, $3::jsonb, 'Science', 'Design challenges', 'District Engineering Circle', 'Collect examples of students iterating on a design.', $4, $4) RETURNING id`,
      [lee, json(BASIC_TEMPLATE), json(['6th', '7th', '8th']), daysAgo(15)],
    );
    await tx.query(`INSERT INTO shared_portfolio_members (shared_portfolio_id, user_id) VALUES ($1, $2)`, [
      engineering,
      lee,
    ]);
    await tx.query(
      `INSERT INTO invitations (shared_portfolio_id, from_user_id, to_user_id, by_email) VALUES ($1, $2, $3, true)`,
      [engineering, lee, tess],
    );

    const copy = async (source: number, owner: number, extra: Responses, age: number) => {
      const { rows } = await tx.query<{ responses: Responses; topic: string; subject: string; grades: string[] }>(
        `SELECT a.responses, p.topic, p.subject, p.grades FROM artifacts a JOIN portfolios p ON p.id = a.portfolio_id WHERE a.id = $1`,
        [source],
      );
      const src = rows[0]!;
      return insertId(
        tx,
        `INSERT INTO shared_artifacts (shared_portfolio_id, owner_id, structure, responses, portfolio_topic, portfolio_subject, portfolio_grades, source_artifact_id, created_at, updated_at)
         VALUES ($1, $2, $3::jsonb, $4::jsonb, $5, $6, $7::jsonb, $8, $9, $9) RETURNING id`,
        // Linked to its original, as a copy made in the portal is: "Shared to" lists it and its comments.
        [
          plc,
          owner,
          json(sharedStructure),
          json({ ...src.responses, ...extra }),
          src.topic,
          src.subject,
          json(src.grades),
          source,
          daysAgo(age),
        ],
      );
    };
    const sharedRamp = await copy(
      ramp,
      tess,
      { [TEAM_QUESTION.key]: 'Seventh graders could graph distance against ramp height.' },
      8,
    );
    const sharedFoodWeb = await copy(foodWeb, theo, {}, 6);

    const comment = (artifactId: number, owner: number, text: string, age: number) =>
      tx.query(
        `INSERT INTO comments (shared_artifact_id, owner_id, text, updated_by, created_at, updated_at) VALUES ($1, $2, $3, $2, $4, $4)`,
        [artifactId, owner, text, daysAgo(age, 15)],
      );
    await comment(sharedRamp, theo, 'Love the prediction step. Did anyone test two cars at once?', 7);
    await comment(sharedRamp, lee, 'This would be a great anchor for our next PLC meeting on evidence.', 6);
    await comment(sharedFoodWeb, tess, 'My fifth graders mixed up arrow directions too. A mini-lesson helped.', 5);
    const react = (artifactId: number, owner: number, value: string) =>
      tx.query(`INSERT INTO reactions (shared_artifact_id, owner_id, value) VALUES ($1, $2, $3)`, [
        artifactId,
        owner,
        value,
      ]);
    await react(sharedRamp, lee, '⭐');
    await react(sharedRamp, theo, '🌉');
    await react(sharedFoodWeb, lee, '🔖');
    await react(sharedFoodWeb, tess, '❓');

    // The PLC scores with the NGSS practices: the coverage map shows the levels reached.
    const rubricId = await rubricRepository.create(
      tx,
      {
        sharedPortfolioId: plc,
        name: NGSS_PRACTICES_TEMPLATE.name,
        description: NGSS_PRACTICES_TEMPLATE.description ?? '',
        createdBy: lee,
      },
      NGSS_PRACTICES_TEMPLATE.criteria,
    );
    await rubricRepository.choose(tx, plc, rubricId);
    const rubric = (await rubricRepository.findById(tx, rubricId))!;
    const criteria = (await rubricRepository.criteriaOf(tx, [rubric.versionId])).get(rubric.versionId) ?? [];
    const score = async (artifactId: number, scorerId: number, code: string, level: string, note: string) => {
      const criterion = criteria.find((c) => c.code === code)!;
      await scoreRepository.add(tx, {
        artifactId,
        versionId: rubric.versionId,
        criterionId: criterion.id,
        levelId: criterion.levels.find((l) => l.label === level)!.id,
        moment: null,
        note,
        scorerId,
      });
    };
    await score(sharedRamp, lee, 'SEP3', 'Proficient', 'Groups planned fair tests and named what they kept the same.');
    await score(sharedRamp, theo, 'SEP3', 'Developing', '');
    await score(
      sharedFoodWeb,
      lee,
      'SEP2',
      'Developing',
      'The model shows parts; the arrows do not yet explain energy flow.',
    );
  });
}
