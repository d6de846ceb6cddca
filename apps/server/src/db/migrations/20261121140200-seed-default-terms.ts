import { type Kysely, sql } from 'kysely';

/**
 * The default terms of use, version 1, so that a new installation has terms to accept from its first
 * start. The text is part of this migration on purpose: it is what version 1 says, and an organisation
 * changes it by publishing version 2 (POST /api/terms/versions), never by editing this file.
 */
const titleEn = 'BTalk terms of use';

const bodyEn = `BTalk is our organisation's own chat and communication app. It is provided for work. Please read
these terms before you use it; you accept them once, and again whenever the organisation publishes a
new version.

## 1. Use BTalk for work

- Use BTalk to share information and coordinate work with colleagues, and to answer call-tree events.
- Write to colleagues as you would in person: be respectful and professional. Harassment, threats,
  discrimination and offensive content are not allowed.
- Do not post anything you are not allowed to share, such as customer data beyond what your work
  needs, passwords, or information classified above what the topic's members may see.
- Do not upload files that contain malware, and do not try to get around BTalk's security or use
  someone else's account.
- Follow the organisation's other policies (information security, data protection, code of conduct);
  they apply in BTalk as everywhere else.

## 2. Call trees and emergencies

- When a call-tree event reaches you, answer as soon as you can: **Safe** or **Need help**. Your answer
  helps the crisis team know who is safe and who needs support.
- Your manager may answer on your behalf when you cannot; such answers are marked and recorded.
- BTalk does not replace the emergency services. In danger, call them first.

## 3. Your personal data

- BTalk uses the details the corporate directory holds about you (name, e-mail address, department,
  job title, manager) to show who you are and to build the call tree.
- BTalk stores what you post, your reactions, what you have read, your notification settings and your
  call-tree answers, so that the app works for you and your colleagues.
- For security, BTalk records sign-ins and important actions (such as accepting these terms) with the
  time and the app you used, and keeps page-view statistics on the organisation's own server. Nothing is
  sold or sent to advertisers.
- Administrators can see this information only as far as their duties require. The organisation keeps
  it as long as its retention rules say, and handles it under the applicable data protection law
  (in Thailand, the Personal Data Protection Act B.E. 2562).
- You can ask the data protection officer what data BTalk holds about you, and ask for it to be
  corrected.

## 4. Posts are not private messages

Posts and comments can be read by everyone who may see the topic. Administrators may review content
when a rule may have been broken or the law requires it.

## 5. Changes

The organisation may update these terms. When it does, BTalk asks you to accept the new version before
you continue.

## 6. Questions

Ask your manager or the IT service desk.`;

const titleTh = 'ข้อกำหนดการใช้งาน BTalk';

const bodyTh = `BTalk คือแอปสนทนาและสื่อสารภายในขององค์กร จัดให้ใช้เพื่อการทำงาน โปรดอ่านข้อกำหนดนี้ก่อนใช้งาน
คุณยอมรับข้อกำหนดเพียงครั้งเดียว และยอมรับอีกครั้งเมื่อองค์กรเผยแพร่ฉบับใหม่

## 1. ใช้ BTalk เพื่อการทำงาน

- ใช้ BTalk เพื่อแบ่งปันข้อมูลและประสานงานกับเพื่อนร่วมงาน และเพื่อตอบกลับเหตุการณ์ผังการติดต่อ (call tree)
- สื่อสารกับเพื่อนร่วมงานอย่างสุภาพและเป็นมืออาชีพเช่นเดียวกับการพบกันต่อหน้า ห้ามคุกคาม ข่มขู่
  เลือกปฏิบัติ หรือโพสต์เนื้อหาที่ไม่เหมาะสม
- ห้ามโพสต์สิ่งที่คุณไม่มีสิทธิ์เปิดเผย เช่น ข้อมูลลูกค้าเกินกว่าที่งานต้องใช้ รหัสผ่าน
  หรือข้อมูลที่มีชั้นความลับสูงกว่าที่สมาชิกของหัวข้อนั้นมีสิทธิ์เห็น
- ห้ามอัปโหลดไฟล์ที่มีมัลแวร์ ห้ามพยายามหลบเลี่ยงระบบความปลอดภัยของ BTalk และห้ามใช้บัญชีของผู้อื่น
- นโยบายอื่นขององค์กร (ความมั่นคงปลอดภัยสารสนเทศ การคุ้มครองข้อมูล จรรยาบรรณ) ใช้กับ BTalk
  เช่นเดียวกับที่อื่น

## 2. ผังการติดต่อและเหตุฉุกเฉิน

- เมื่อได้รับเหตุการณ์ผังการติดต่อ โปรดตอบโดยเร็วที่สุดว่า **ปลอดภัย** หรือ **ต้องการความช่วยเหลือ**
  คำตอบของคุณช่วยให้ทีมจัดการภาวะวิกฤตรู้ว่าใครปลอดภัยและใครต้องการความช่วยเหลือ
- ผู้บังคับบัญชาของคุณอาจตอบแทนคุณเมื่อคุณตอบเองไม่ได้ คำตอบเช่นนี้จะถูกระบุและบันทึกไว้
- BTalk ไม่ได้ใช้แทนหน่วยบริการฉุกเฉิน เมื่อมีอันตราย โปรดติดต่อหน่วยบริการฉุกเฉินก่อน

## 3. ข้อมูลส่วนบุคคลของคุณ

- BTalk ใช้ข้อมูลของคุณจากระบบไดเรกทอรีขององค์กร (ชื่อ อีเมล หน่วยงาน ตำแหน่ง ผู้บังคับบัญชา)
  เพื่อแสดงว่าคุณเป็นใครและเพื่อสร้างผังการติดต่อ
- BTalk จัดเก็บสิ่งที่คุณโพสต์ การแสดงความรู้สึก สิ่งที่คุณอ่านแล้ว การตั้งค่าการแจ้งเตือน
  และคำตอบในผังการติดต่อ เพื่อให้แอปทำงานได้สำหรับคุณและเพื่อนร่วมงาน
- เพื่อความปลอดภัย BTalk บันทึกการเข้าสู่ระบบและการกระทำสำคัญ (เช่น การยอมรับข้อกำหนดนี้)
  พร้อมเวลาและแอปที่คุณใช้ และเก็บสถิติการเข้าชมหน้าไว้บนเซิร์ฟเวอร์ขององค์กรเอง
  ไม่มีการขายหรือส่งข้อมูลให้ผู้โฆษณา
- ผู้ดูแลระบบเข้าถึงข้อมูลนี้ได้เท่าที่จำเป็นต่อหน้าที่เท่านั้น องค์กรเก็บรักษาข้อมูลตามระยะเวลาที่กำหนด
  และดูแลข้อมูลตามพระราชบัญญัติคุ้มครองข้อมูลส่วนบุคคล พ.ศ. 2562
- คุณสามารถสอบถามเจ้าหน้าที่คุ้มครองข้อมูลส่วนบุคคลว่า BTalk เก็บข้อมูลใดของคุณไว้บ้าง และขอให้แก้ไขให้ถูกต้องได้

## 4. โพสต์ไม่ใช่ข้อความส่วนตัว

โพสต์และความคิดเห็นจะถูกอ่านได้โดยทุกคนที่มีสิทธิ์เห็นหัวข้อนั้น ผู้ดูแลระบบอาจตรวจสอบเนื้อหา
เมื่ออาจมีการฝ่าฝืนข้อกำหนดหรือเมื่อกฎหมายกำหนด

## 5. การเปลี่ยนแปลง

องค์กรอาจปรับปรุงข้อกำหนดนี้ เมื่อมีการปรับปรุง BTalk จะขอให้คุณยอมรับฉบับใหม่ก่อนใช้งานต่อ

## 6. ข้อสงสัย

สอบถามผู้บังคับบัญชาของคุณ หรือฝ่ายบริการด้านไอที`;

/** Publishes version 1 unless a version exists already. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const existing = await sql<{ n: number }>`select count(*) as n from terms_versions`.execute(db);
  if (Number(existing.rows[0]?.n ?? 0) > 0) return;
  await db
    .insertInto('terms_versions' as never)
    .values({
      version: 1,
      title_th: titleTh,
      body_th: bodyTh,
      title_en: titleEn,
      body_en: bodyEn,
      published_at: new Date().toISOString(),
      published_by: null,
    } as never)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from terms_versions where version = 1 and published_by is null`.execute(db);
}
